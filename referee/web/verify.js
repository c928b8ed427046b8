/* Verify a referee log (format 2) in the browser, with no server code
   (docs/log-format.md). A classic script (works from
   file://): it defines window.RefereeVerify.

   The checks, in order; the first that fails is the verdict ({ok:false, seq, check, detail}):
     format          every line is strict UTF-8 JSON (no BOM, no key twice, numbers
                     spelled as canonical JSON spells them), the first {header, hash},
                     every event exactly {seq,type,actor,at,commit,prev,hash,data,salt}
                     (+ signature on the last), seqs 1..n with no gap
     header_hash     sha256_hex(canonical(header)) == the first line's hash      (seq 0)
     seed            the last event is seed_revealed and carries the seed        (seq n)
     seed_commitment sha256_hex(seed) == header.seed_commitment                  (seq n)
     for every event, in seq order:
       salt          hmac_hex(seed, "event:" + seq) == salt
       commit        sha256_hex(salt + canonical(data)) == commit
       prev          prev == the hash before (the header's for event 1)
       hash          sha256_hex(prev + canonical({seq,type,actor,at,commit,prev})) == hash
     signature       Ed25519 (key kid of the JWK set) over canonical({"purpose": "referee.final",
                     "game": header.id, "version": n, "head": hash(n), "kid": kid})   (seq n);
                     every key of the set strong (no small order, canonical), S < L.
                     No key set: {ok: false, checked: false} — the log holds, who wrote it is not checked
   docs/log-format.md is the one spec of the format, for this verifier and the Python audit: both
   give one verdict on every log (tests/unit/test_two_verifiers.py runs a corpus through both).
   Canonical JSON is Python's json.dumps(x, sort_keys=True, separators=(",", ":"),
   ensure_ascii=False), byte for byte: the parser below keeps every number's
   lexeme (integers of any size survive) and objects as Maps. */
(function (global) {
  "use strict";

  /* ---------- JSON with exact numbers ---------- */
  function JNum(lexeme) { this.lexeme = lexeme; }
  var INT = /^-?(0|[1-9][0-9]*)$/;
  /* Python reads an integer of at most 4300 digits (sys.int_info.default_max_str_digits): longer is refused */
  var MAX_INT_DIGITS = 4300;
  var NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/;

  function ParseError(message) { this.message = message; }
  ParseError.prototype = Object.create(Error.prototype);
  ParseError.prototype.name = "ParseError";

  function parse(text) {
    var i = 0, depth = 0;
    function ws() { while (i < text.length && " \t\n\r".indexOf(text[i]) >= 0) i++; }
    function fail(why) { throw new ParseError(why + " at character " + i); }
    function value() {
      ws();
      var c = text[i];
      if (c === "{") return object();
      if (c === "[") return array();
      if (c === '"') return string();
      if (text.startsWith("true", i)) { i += 4; return true; }
      if (text.startsWith("false", i)) { i += 5; return false; }
      if (text.startsWith("null", i)) { i += 4; return null; }
      var m = NUMBER.exec(text.slice(i, i + MAX_INT_DIGITS + 64));
      if (m && m[0].length) {
        if (INT.test(m[0]) && m[0].replace("-", "").length > MAX_INT_DIGITS) fail("a number of more than " + MAX_INT_DIGITS + " digits");
        i += m[0].length; return new JNum(m[0]);
      }
      fail("not JSON");
    }
    function object() {
      if (++depth > 100) fail("nesting deeper than 100 levels");
      i++; var out = new Map(); ws();
      if (text[i] === "}") { i++; depth--; return out; }
      for (;;) {
        ws(); if (text[i] !== '"') fail("a key is not a string");
        var k = string(); ws();
        if (text[i] !== ":") fail("':' expected"); i++;
        if (out.has(k)) fail("the key " + JSON.stringify(k) + " twice");
        out.set(k, value()); ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; depth--; return out; }
        fail("',' or '}' expected");
      }
    }
    function array() {
      if (++depth > 100) fail("nesting deeper than 100 levels");
      i++; var out = []; ws();
      if (text[i] === "]") { i++; depth--; return out; }
      for (;;) {
        out.push(value()); ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; depth--; return out; }
        fail("',' or ']' expected");
      }
    }
    function string() {
      i++; var out = "";
      for (;;) {
        if (i >= text.length) fail("a string is not closed");
        var c = text[i];
        if (c === '"') { i++; break; }
        if (c < " ") fail("a control character in a string");
        if (c === "\\") {
          var e = text[i + 1];
          var simple = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
          if (e in simple) { out += simple[e]; i += 2; continue; }
          if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)); i += 6; continue;
          }
          fail("a bad escape");
        }
        out += c; i++;
      }
      if (/[\ud800-\udbff](?![\udc00-\udfff])|(^|[^\ud800-\udbff])[\udc00-\udfff]/.test(out)) fail("a lone surrogate");
      return out;
    }
    var v = value(); ws();
    if (i !== text.length) fail("text after the value");
    return v;
  }

  /* ---------- canonical JSON (Python's json.dumps, sort_keys, compact, ensure_ascii=False) ---------- */
  function codePointCompare(a, b) {
    var ia = 0, ib = 0;
    while (ia < a.length && ib < b.length) {
      var ca = a.codePointAt(ia), cb = b.codePointAt(ib);
      if (ca !== cb) return ca < cb ? -1 : 1;
      ia += ca > 0xffff ? 2 : 1; ib += cb > 0xffff ? 2 : 1;
    }
    if (ia >= a.length && ib >= b.length) return 0;
    return ia >= a.length ? -1 : 1;
  }
  function quote(s) {
    var out = '"';
    for (var k = 0; k < s.length; k++) {
      var c = s[k], n = s.charCodeAt(k);
      if (c === '"') out += '\\"';
      else if (c === "\\") out += "\\\\";
      else if (c === "\n") out += "\\n";
      else if (c === "\r") out += "\\r";
      else if (c === "\t") out += "\\t";
      else if (c === "\b") out += "\\b";
      else if (c === "\f") out += "\\f";
      else if (n < 0x20) out += "\\u00" + (n < 16 ? "0" : "") + n.toString(16);
      else out += c;
    }
    return out + '"';
  }
  /* a float as Python's repr: shortest round-trip digits, exponent when exp < -4 or exp >= 16 */
  function floatRepr(x) {
    if (!isFinite(x)) throw new ParseError("a non-finite number");
    if (x === 0) return (1 / x < 0) ? "-0.0" : "0.0";
    var sign = x < 0 ? "-" : ""; x = Math.abs(x);
    var m = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(x.toExponential());
    var digits = m[1] + (m[2] || ""), exp = parseInt(m[3], 10);
    if (exp < -4 || exp >= 16) {
      var mant = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
      var e = Math.abs(exp);
      return sign + mant + "e" + (exp < 0 ? "-" : "+") + (e < 10 ? "0" : "") + e;
    }
    if (exp < 0) return sign + "0." + "0".repeat(-exp - 1) + digits;
    if (digits.length <= exp + 1) return sign + digits + "0".repeat(exp + 1 - digits.length) + ".0";
    return sign + digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
  }
  function numberText(lexeme) {
    if (INT.test(lexeme)) return BigInt(lexeme).toString();
    return floatRepr(Number(lexeme));
  }
  function canonical(v) {
    if (v === null) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (v instanceof JNum) return numberText(v.lexeme);
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : floatRepr(v);
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "string") return quote(v);
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    var entries = v instanceof Map ? Array.from(v.entries()) : Object.keys(v).map(function (k) { return [k, v[k]]; });
    entries.sort(function (a, b) { return codePointCompare(a[0], b[0]); });
    return "{" + entries.map(function (e) { return quote(e[0]) + ":" + canonical(e[1]); }).join(",") + "}";
  }
  /* a number spelled as canonical JSON spells it (README: -0, 1E5, 1.50 are refused) */
  function checkNumbers(v) {
    if (v instanceof JNum) { if (numberText(v.lexeme) !== v.lexeme) throw new ParseError("the number " + v.lexeme + " is not written as canonical JSON writes it"); }
    else if (Array.isArray(v)) v.forEach(checkNumbers);
    else if (v instanceof Map) v.forEach(checkNumbers);
  }
  /* plain JS values (for drawing): integers beyond 2^53 become strings of their digits */
  function plain(v) {
    if (v instanceof JNum) { var n = Number(v.lexeme); return INT.test(v.lexeme) && !Number.isSafeInteger(n) ? v.lexeme : n; }
    if (Array.isArray(v)) return v.map(plain);
    if (v instanceof Map) { var o = {}; v.forEach(function (x, k) { o[k] = plain(x); }); return o; }
    return v;
  }

  /* ---------- hashing ---------- */
  var enc = new TextEncoder();
  function hex(buf) {
    var b = new Uint8Array(buf), s = "";
    for (var k = 0; k < b.length; k++) s += (b[k] < 16 ? "0" : "") + b[k].toString(16);
    return s;
  }
  function sha256Hex(text) { return crypto.subtle.digest("SHA-256", enc.encode(text)).then(hex); }
  function hmacKey(seed) {
    return crypto.subtle.importKey("raw", enc.encode(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }
  function hmacHex(key, msg) { return crypto.subtle.sign("HMAC", key, enc.encode(msg)).then(hex); }
  function unb64url(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
    var b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    var raw = atob(b64), out = new Uint8Array(raw.length);
    for (var k = 0; k < raw.length; k++) out[k] = raw.charCodeAt(k);
    var back = btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return back === text ? out : null;  /* one spelling only (unused bits set: refused) */
  }
  function linkText(ev) {
    return canonical(new Map([["seq", ev.get("seq")], ["type", ev.get("type")], ["actor", ev.get("actor")],
      ["at", ev.get("at")], ["commit", ev.get("commit")], ["prev", ev.get("prev")]]));
  }
  function hasEd25519() {
    return !!(global.crypto && crypto.subtle) && crypto.subtle.importKey("jwk",
      { kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" },
      { name: "Ed25519" }, false, ["verify"]).then(function () { return true; }, function () { return false; });
  }

  var EVENT_KEYS = ["actor", "at", "commit", "data", "hash", "prev", "salt", "seq", "type"];
  /* the longest stretch of a file without a \n byte, the \n included (docs/log-format.md, "Reading a log") */
  var MAX_LINE_BYTES = 1048576;
  /* a blank line: only the characters Python's str.isspace() takes (not String.prototype.trim's: no BOM, and \x1c-\x1f, \x85) */
  var BLANK = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

  /* the non-blank lines; null if a stretch without \n is longer than MAX_LINE_BYTES */
  function lines(text) {
    var stretches = text.split("\n");
    for (var k = 0; k < stretches.length; k++) {
      var s = stretches[k], newline = k < stretches.length - 1 ? 1 : 0;
      if (s.length * 3 + newline > MAX_LINE_BYTES && enc.encode(s).length + newline > MAX_LINE_BYTES) return null;
    }
    return text.split(/\r\n|\r|\n/).filter(function (l) { return !BLANK.test(l); });
  }

  /* ---------- Ed25519, read strictly (docs/log-format.md, "Keys and signatures") ---------- */
  var P = (1n << 255n) - 19n, L = (1n << 252n) + 27742317777372353535851937790883648493n;
  /* the y of every point of order 1, 2, 4 or 8 (either sign of x) */
  var SMALL_ORDER_Y = [0n, 1n, P - 1n, 0x7A03AC9277FDC74EC6CC392CFA53202A0F67100D760B3CBA4FD84D3D706A17C7n,
    0x05FC536D880238B13933C6D305ACDFD5F098EFF289F4C345B027B2C28F95E826n];
  var KID = /^[A-Za-z0-9._-]{1,64}$/;
  function littleEndian(bytes) { var n = 0n; for (var k = bytes.length - 1; k >= 0; k--) n = (n << 8n) | BigInt(bytes[k]); return n; }
  function weakKey(raw) {
    var y = littleEndian(raw) & ((1n << 255n) - 1n);
    if (y >= P) return "its encoding is not canonical (y >= 2^255 - 19)";
    if (SMALL_ORDER_Y.indexOf(y) >= 0) return "it is a point of small order (such a key verifies statements nobody signed)";
    return null;
  }
  function weakSignature(raw) {
    if (littleEndian(raw.subarray(32)) >= L) return "its S is not below the group order L";
    if ((littleEndian(raw.subarray(0, 32)) & ((1n << 255n) - 1n)) >= P) return "its R is not canonically encoded";
    return null;
  }
  /* the key set's keys by kid, each {x: raw bytes, jwk}, checked as the Python audit checks one (every key,
     not only the one that signed); or a string saying why the set is refused */
  function keySet(jwks) {
    if (!jwks || typeof jwks !== "object" || !Array.isArray(jwks.keys)) return "a key set is {\"keys\": [JWK, ...]}";
    var byKid = new Map();
    for (var k = 0; k < jwks.keys.length; k++) {
      var jwk = jwks.keys[k];
      if (!jwk || typeof jwk !== "object" || jwk.kty !== "OKP" || jwk.crv !== "Ed25519") return "key " + k + " is not an Ed25519 JWK";
      if (typeof jwk.kid !== "string" || !KID.test(jwk.kid)) return "key " + k + " has no valid kid";
      if (byKid.has(jwk.kid)) return "two keys are named " + jwk.kid;
      var raw = typeof jwk.x === "string" ? unb64url(jwk.x) : null;
      if (!raw || raw.length !== 32) return "key " + jwk.kid + ": x is not a 32-byte Ed25519 public key in base64url";
      var weak = weakKey(raw);
      if (weak) return "key " + jwk.kid + " is refused: " + weak;
      byKid.set(jwk.kid, { x: jwk.x, raw: raw });
    }
    return byKid.size ? byKid : "the key set holds no key";
  }

  /* bytes (ArrayBuffer or Uint8Array) -> text, strictly */
  function decode(bytes) {
    var u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    if (u8.length >= 3 && u8[0] === 0xef && u8[1] === 0xbb && u8[2] === 0xbf) throw new ParseError("a BOM");
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(u8);
  }

  /* The whole log: resolves {ok, seq, check, detail, events, header, head}. jwks: the parsed JWK set or null. */
  async function verifyLog(bytes, jwks, progress) {
    var fail = function (seq, check, detail) { return { ok: false, seq: seq, check: check, detail: detail }; };
    var text;
    try { text = typeof bytes === "string" ? bytes : decode(bytes); } catch (e) { return fail(0, "format", "not UTF-8 text: " + (e.message || e)); }
    var rows = lines(text), parsed = [];
    if (rows === null) return fail(0, "format", "a line is longer than " + MAX_LINE_BYTES + " bytes");
    if (!rows.length) return fail(0, "format", "the log is empty");
    for (var n = 0; n < rows.length; n++) {
      try { var v = parse(rows[n]); checkNumbers(v); parsed.push(v); }
      catch (e) { return fail(n, "format", "line " + (n + 1) + ": " + e.message); }
    }
    var first = parsed[0];
    if (!(first instanceof Map) || first.size !== 2 || !first.has("header") || !first.has("hash") || !(first.get("header") instanceof Map))
      return fail(0, "format", "the first line is not {header, hash}");
    var header = first.get("header");
    var events = parsed.slice(1);
    for (var k = 0; k < events.length; k++) {
      var ev = events[k], seq = k + 1, last = k === events.length - 1;
      if (!(ev instanceof Map)) return fail(seq, "format", "line " + (seq + 1) + " is not an event object");
      var keys = Array.from(ev.keys()).filter(function (x) { return !(last && x === "signature"); }).sort();
      if (keys.join(",") !== EVENT_KEYS.join(",")) return fail(seq, "hash_chain", "event keys are " + keys.join(", "));
      var s = ev.get("seq");
      if (!(s instanceof JNum) || s.lexeme !== String(seq)) return fail(seq, "format", "seq is not " + seq);
      if (ev.has("signature") && !last) return fail(seq, "signature", "a signature on an event that is not the last");
      var signature = ev.get("signature");
      if (ev.has("signature") && !(signature instanceof Map && signature.size === 2 && typeof signature.get("kid") === "string" && typeof signature.get("sig") === "string"))
        return fail(seq, "signature", "the signature is not {kid, sig}, two strings and nothing else");
    }
    if (canonical(header.get("log_format")) !== "2") return fail(0, "format", "header.log_format is not 2");
    if (await sha256Hex(canonical(header)) !== first.get("hash")) return fail(0, "header_hash", "the header does not hash to the first line's hash");
    if (!events.length) return fail(0, "seed", "the log has no event");
    var lastEv = events[events.length - 1], nseq = events.length;
    var lastData = lastEv.get("data");
    if (lastEv.get("type") !== "seed_revealed" || !(lastData instanceof Map) || typeof lastData.get("seed") !== "string" || !lastData.get("seed"))
      return fail(nseq, "seed", "the last event is not seed_revealed with the seed: the game is not over");
    var seed = lastData.get("seed");
    if (await sha256Hex(seed) !== header.get("seed_commitment")) return fail(nseq, "seed_commitment", "sha256(seed) is not the header's seed_commitment");
    var key = await hmacKey(seed), prev = first.get("hash");
    for (k = 0; k < events.length; k++) {
      ev = events[k]; seq = k + 1;
      if (progress && seq % 500 === 0) progress(seq, events.length);
      var salt = ev.get("salt");
      if (await hmacHex(key, "event:" + seq) !== salt) return fail(seq, "salt", "the salt is not HMAC-SHA256(seed, \"event:" + seq + "\")");
      if (await sha256Hex(salt + canonical(ev.get("data"))) !== ev.get("commit")) return fail(seq, "commit", "salt + data do not hash to the commit");
      if (ev.get("prev") !== prev) return fail(seq, "prev", "prev is not the hash of the event before");
      if (typeof ev.get("prev") !== "string" || await sha256Hex(ev.get("prev") + linkText(ev)) !== ev.get("hash")) return fail(seq, "hash", "the link does not hash to its hash");
      prev = ev.get("hash");
    }
    var sig = lastEv.get("signature");
    /* checked: false — the log holds as far as it was checked, but who wrote it was not checked */
    var result = { ok: true, checked: true, seq: null, check: null, detail: "", header: header, head: prev, version: nseq, events: events };
    var unchecked = function (why) { return Object.assign(result, { ok: false, checked: false, check: "signature", seq: nseq, detail: "signature not checked: " + why }); };
    if (!jwks) return unchecked("no key set (GET /v1/keys, or pick a keys.json with the log)");
    if (!(sig instanceof Map)) return fail(nseq, "signature", "the last event carries no signature {kid, sig}");
    if (!(await hasEd25519())) return unchecked("this browser has no Ed25519 in WebCrypto");
    var keys = keySet(jwks);
    if (typeof keys === "string") return fail(nseq, "signature", "the key set is refused: " + keys);
    var jwk = keys.get(sig.get("kid"));
    if (!jwk) return fail(nseq, "signature", "signed by key " + sig.get("kid") + ", which is not in the key set");
    if (typeof header.get("id") !== "string") return fail(nseq, "signature", "the header has no game id to sign");
    var raw = unb64url(sig.get("sig"));
    if (!raw || raw.length !== 64) return fail(nseq, "signature", "the signature is not 64 bytes of canonical base64url");
    var weak = weakSignature(raw);
    if (weak) return fail(nseq, "signature", "the signature is refused: " + weak);
    var statement = canonical(new Map([["purpose", "referee.final"], ["game", header.get("id")], ["version", nseq],
      ["head", prev], ["kid", sig.get("kid")]]));
    var ok;
    try {
      var pub = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: jwk.x }, { name: "Ed25519" }, false, ["verify"]);
      ok = await crypto.subtle.verify({ name: "Ed25519" }, pub, raw, enc.encode(statement));
    } catch (e) { ok = false; }
    if (!ok) return fail(nseq, "signature", "the final head's signature does not verify under key " + sig.get("kid"));
    return result;
  }

  /* Live: link by link over what was received (an SSE event's JSON text). */
  function Received() { this.prev = null; this.count = 0; this.problem = null; }
  Received.prototype.add = async function (jsonText) {
    if (this.problem) return this.problem;
    var ev = jsonText;
    try { if (typeof ev === "string") ev = parse(ev); } catch (e) { return (this.problem = { seq: null, check: "format", detail: e.message }); }
    var seq = plain(ev.get("seq"));
    if (this.prev !== null && ev.get("prev") !== this.prev) return (this.problem = { seq: seq, check: "prev", detail: "prev does not chain to the event before" });
    if (await sha256Hex(ev.get("prev") + linkText(ev)) !== ev.get("hash")) return (this.problem = { seq: seq, check: "hash", detail: "the link does not hash to its hash" });
    if (ev.has("salt") && await sha256Hex(ev.get("salt") + canonical(ev.get("data"))) !== ev.get("commit"))
      return (this.problem = { seq: seq, check: "commit", detail: "data and salt do not open its commit" });
    this.prev = ev.get("hash"); this.count++;
    return null;
  };

  global.RefereeVerify = { parse: parse, canonical: canonical, plain: plain, floatRepr: floatRepr, verifyLog: verifyLog,
    Received: Received, decode: decode, hasEd25519: hasEd25519, sha256Hex: sha256Hex, keySet: keySet,
    MAX_LINE_BYTES: MAX_LINE_BYTES };
})(typeof window !== "undefined" ? window : globalThis);  /* globalThis: node, for the tests (tests/verify_node.mjs) */
