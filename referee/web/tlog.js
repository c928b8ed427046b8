/* The transparency log in the browser (docs/transparency.md): a classic script
   defining window.RefereeTlog. checkInclusion(result, proof, jwks) takes what
   RefereeVerify.verifyLog found in a game's log (its header, last event and head),
   the body of GET /v1/transparency/proof/inclusion?game=ID and the referee's keys,
   and checks, in order:
     leaf        the proof's leaf is the game's signed final head: canonical({"purpose":
                 "referee.final", "game", "version", "head", "kid"}) of the log
     checkpoint  the C2SP signed note: origin, size, base64 root; a signature line
                 "— <origin> base64(keyhash || sig)" whose key hash is SHA-256(origin
                 "\n" 0x01 pub)[:4] of a key of the set and whose Ed25519 signature
                 over the note's text verifies
     inclusion   RFC 9162 2.1.3.2: the audit path from SHA-256(0x00 || leaf) at the
                 leaf's index reaches the checkpoint's root (node: SHA-256(0x01 || l || r))
   It answers {ok, detail}. */
(function (global) {
  "use strict";
  var enc = new TextEncoder();

  function b64(text) {
    if (typeof text !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
    try { var s = atob(text); } catch (e) { return null; }
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }
  function b64url(text) { return b64(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)); }
  function concat() {
    var n = 0, k; for (k = 0; k < arguments.length; k++) n += arguments[k].length;
    var out = new Uint8Array(n), at = 0;
    for (k = 0; k < arguments.length; k++) { out.set(arguments[k], at); at += arguments[k].length; }
    return out;
  }
  async function sha256(bytes) { return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)); }
  function same(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  function leafHash(leaf) { return sha256(concat(new Uint8Array([0]), leaf)); }
  function nodeHash(l, r) { return sha256(concat(new Uint8Array([1]), l, r)); }

  /* RFC 9162, 2.1.3.2 */
  async function verifyInclusion(leaf, index, size, proof, root) {
    if (!(index >= 0 && index < size)) return false;
    var fn = index, sn = size - 1, r = leaf;
    for (var i = 0; i < proof.length; i++) {
      if (sn === 0) return false;
      if (fn % 2 === 1 || fn === sn) {
        r = await nodeHash(proof[i], r);
        while (fn % 2 === 0 && fn !== 0) { fn = Math.floor(fn / 2); sn = Math.floor(sn / 2); }
      } else {
        r = await nodeHash(r, proof[i]);
      }
      fn = Math.floor(fn / 2); sn = Math.floor(sn / 2);
    }
    return sn === 0 && same(r, root);
  }

  /* the checkpoint of a signed note, if a key of jwks signed it; else a string saying why not */
  async function checkpoint(note, jwks) {
    var cut = note.indexOf("\n\n");
    if (cut < 0) return "the checkpoint is no signed note";
    var text = note.slice(0, cut + 1), lines = text.split("\n");
    var origin = lines[0], size = lines[1], root = b64(lines[2] || "");
    if (!origin || !/^(0|[1-9][0-9]*)$/.test(size || "") || !root || root.length !== 32) return "the checkpoint's lines are not origin, size, root";
    var sigs = note.slice(cut + 2).split("\n").filter(function (l) { return l; });
    var keys = (jwks && jwks.keys) || [];
    for (var i = 0; i < sigs.length; i++) {
      var parts = sigs[i].split(" ");
      if (parts.length !== 3 || parts[0] !== "\u2014" || parts[1] !== origin) continue;
      var blob = b64(parts[2]);
      if (!blob || blob.length !== 68) continue;
      for (var k = 0; k < keys.length; k++) {
        var pub = b64url(keys[k].x || "");
        if (!pub || pub.length !== 32) continue;
        var hash = (await sha256(concat(enc.encode(origin + "\n"), new Uint8Array([1]), pub))).slice(0, 4);
        if (!same(hash, blob.slice(0, 4))) continue;
        try {
          var key = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: keys[k].x }, { name: "Ed25519" }, false, ["verify"]);
          if (await crypto.subtle.verify({ name: "Ed25519" }, key, blob.slice(4), enc.encode(text)))
            return { origin: origin, size: Number(size), root: root };
        } catch (e) { /* a key this browser cannot use: try the next */ }
      }
    }
    return "no signature of the checkpoint verifies under the referee's keys";
  }

  async function checkInclusion(result, proof, jwks) {
    var V = global.RefereeVerify;
    var last = result.events[result.events.length - 1];
    var statement = V.canonical(new Map([["purpose", "referee.final"], ["game", result.header.get("id")],
      ["version", result.version], ["head", result.head], ["kid", last.get("signature").get("kid")]]));
    if (!proof || proof.leaf !== statement) return { ok: false, detail: "the logged leaf is not this game's signed final head: the game was rewritten" };
    var tree = await checkpoint(proof.checkpoint || "", jwks);
    if (typeof tree === "string") return { ok: false, detail: tree };
    var path = (proof.proof || []).map(b64);
    if (path.some(function (h) { return !h || h.length !== 32; })) return { ok: false, detail: "a hash of the proof is not 32 bytes of base64" };
    var ok = await verifyInclusion(await leafHash(enc.encode(statement)), proof.index, tree.size, path, tree.root);
    if (!ok) return { ok: false, detail: "the proof does not reach the signed root" };
    return { ok: true, detail: "the final head is leaf " + proof.index + " of " + tree.origin + "'s signed tree of " + tree.size + (tree.size === 1 ? " game" : " games") };
  }

  global.RefereeTlog = { checkInclusion: checkInclusion, verifyInclusion: verifyInclusion, checkpoint: checkpoint,
    leafHash: leafHash };
})(typeof window !== "undefined" ? window : globalThis);
