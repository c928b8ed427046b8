/* The browser verifier (referee/web/verify.js) run by node, as the watch page runs it
   (tests/unit/test_two_verifiers.py). verify.js is a classic script: it is run in this
   process's global scope, where node gives it what the browser does (WebCrypto's
   crypto.subtle with Ed25519, TextEncoder/TextDecoder, atob/btoa).

   Usage: node tests/verify_node.cjs CASES.json
   CASES.json: [{"name", "log": path, "keys": path or null}, ...]
   Prints [{"name", "ok", "checked", "check", "seq", "detail"}, ...] as JSON. */
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

if (!globalThis.crypto || !globalThis.crypto.subtle) globalThis.crypto = require("node:crypto").webcrypto;
vm.runInThisContext(fs.readFileSync(path.join(__dirname, "..", "referee", "web", "verify.js"), "utf8"),
  { filename: "verify.js" });

async function main() {
  const cases = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const out = [];
  for (const c of cases) {
    const bytes = new Uint8Array(fs.readFileSync(c.log));
    const keys = c.keys ? JSON.parse(fs.readFileSync(c.keys, "utf8")) : null;
    let r;
    try {
      r = await globalThis.RefereeVerify.verifyLog(bytes, keys, null);
    } catch (e) {  /* a verifier that throws has no verdict: the test says so */
      r = { ok: false, checked: true, check: "exception", seq: null, detail: String(e && e.stack || e) };
    }
    out.push({ name: c.name, ok: r.ok, checked: r.checked !== false, check: r.check, seq: r.seq, detail: r.detail });
  }
  process.stdout.write(JSON.stringify(out));
}
main().catch((e) => { console.error(e); process.exit(1); });
