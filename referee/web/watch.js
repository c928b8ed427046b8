/* Watch, replay and verify any game (issue 25): the page's classic half.
   It follows the game's events, checks each link as it comes, replays a
   finished game version by version and verifies its whole log; the table
   itself is drawn by table/main.js (issue 38), an ES module loaded only when
   the page is served. A classic script with relative paths: it also runs
   from file:// (verifying a log file, no server). A seat token is read from
   the URL fragment (#token=…) and sent only as Authorization: Bearer. */
(function () {
  "use strict";
  var V = window.RefereeVerify;
  var MAX_EVENTS = 300;
  var S = { token: null, id: null,
            lastSeq: 0, finished: false, received: null, liveProblem: null, refreshing: false, dirty: false,
            shown: [], replaying: false, replayAsk: 0, eventsShown: 0, marks: [],
            lines: [] };  /* every event said so far, {seq, type, text, mark}: the list shows at most MAX_EVENTS */

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  /* JSON for the text of a <script> element: <, >, & and U+2028/2029 as \u escapes,
     so a name such as "</script><img onerror=…>" never closes the element when the
     page is saved and reopened (a browser writes a script's text out verbatim);
     JSON.parse gives back exactly the same value. */
  function scriptJson(value) {
    return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, function (c) {
      return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4);
    });
  }
  function sleep(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }
  function auth() { return S.token ? { Authorization: "Bearer " + S.token } : {}; }
  async function get(path, as) {
    var r = await fetch(path, { headers: auth(), cache: "no-store" });
    if (!r.ok) throw new Error("GET " + path.split("?")[0] + ": " + r.status);
    return as === "bytes" ? r.arrayBuffer() : as === "text" ? r.text() : r.json();
  }

  /* ---------- the table (table/main.js, an ES module: over http(s) only) ---------- */
  var tableReady = null;
  /* The table's module, loaded once: a module does not load from file://, so
     it is asked for only when the page is served (no console error offline). */
  function table() {
    if (tableReady) return tableReady;
    tableReady = new Promise(function (resolve, reject) {
      if (window.RefereeTable) { resolve(window.RefereeTable); return; }
      document.addEventListener("referee-table", function () { resolve(window.RefereeTable); }, { once: true });
      var s = document.createElement("script");
      s.type = "module";
      s.src = "/watch/table/main.js";
      s.onerror = function () { reject(new Error("the table's scripts did not load")); };
      document.head.appendChild(s);
    });
    return tableReady;
  }

  /* ---------- the verdict ---------- */
  function verdict(state, text, seq, check, detail) {
    document.body.setAttribute("data-verified", state);
    var v = $("verdict");
    v.textContent = text;
    v.setAttribute("data-failed-seq", seq === null || seq === undefined ? "" : String(seq));
    v.setAttribute("data-check", check || "");
    $("verify-detail").textContent = detail || "";
  }
  function showResult(r, what) {
    if (r.ok) verdict("true", "verified", null, null, what + ": header, seed commitment, " + r.version +
      " events' salts, commits and links, and the referee's signature of the final head all hold.");
    else verdict("false", "NOT verified: " + r.check + " fails at seq " + r.seq, r.seq, r.check, r.detail);
  }

  /* ---------- the table ---------- */
  /* text: the view as scriptJson writes it, when the caller has it already */
  function draw(view, text) {
    $("shown-view").textContent = text === undefined ? scriptJson(view) : text;
    window.RefereeTable.draw(view);
  }

  /* ---------- events in words (the table's words; kept in step with the replay) ---------- */
  /* An event in words, kept (S.lines) for the replay: the list shows the last MAX_EVENTS lines, and the
     slider taken back past its first brings the earlier ones back (their words said once, in order). */
  function sayEvent(ev) {
    var text = window.RefereeTable.eventText(ev);
    var line = { seq: ev.seq, type: ev.type, text: text, mark: noteMark(ev, text) };
    S.lines.push(line);
    return line;
  }
  function lineItem(line) {
    var li = el("li", null, line.text);
    li.value = line.seq;
    li.setAttribute("data-type", line.type);
    li.setAttribute("data-seq", String(line.seq));
    if (line.mark) {  /* a default the referee played for a seat: marked in the list too */
      li.className = "ev-default " + line.mark.cls;
      li.setAttribute("data-default", line.mark.cause);
      li.title = line.mark.title;
    }
    return li;
  }
  /* the list's gutter as wide as its largest number (the last line's): no number of any size is cut */
  function fitNumbers(ol) {
    var last = ol.lastElementChild;
    ol.style.setProperty("--digits", String(Math.max(3, last ? String(last.value).length : 1)));
  }
  function showEvent(ev) {
    var ol = $("events");
    $("events-wrap").hidden = false;
    S.eventsShown++;
    ol.appendChild(lineItem(sayEvent(ev)));
    if (ol.childNodes.length > MAX_EVENTS) ol.removeChild(ol.firstChild);
    fitNumbers(ol);
    ol.scrollTop = ol.scrollHeight;
    window.RefereeTable.lastLine();  /* the "Last:" line follows the list */
  }
  /* The list in step with the replay at `version`: the MAX_EVENTS lines up to it (the list drawn anew only
     when the slider went back past its first line, or forward from there), the lines after it hidden. */
  function eventsAt(version) {
    var ol = $("events"), upTo = 0;
    while (upTo < S.lines.length && S.lines[upTo].seq <= version) upTo++;
    var from = Math.max(0, upTo - MAX_EVENTS);
    var first = ol.firstChild ? Number(ol.firstChild.getAttribute("data-seq")) : null;
    if (S.lines.length && first !== S.lines[from].seq) {
      ol.replaceChildren.apply(ol, S.lines.slice(from, from + MAX_EVENTS).map(lineItem));
      fitNumbers(ol);
    }
    Array.prototype.forEach.call(ol.children, function (li) {
      li.hidden = Number(li.getAttribute("data-seq")) > version;
    });
    var shown = ol.querySelectorAll("li:not([hidden])"), last = shown[shown.length - 1];
    if (last) ol.scrollTop += last.getBoundingClientRect().bottom - ol.getBoundingClientRect().bottom;  /* the list, not the page */
  }

  /* A default the referee played for a seat (a bot's timeout or invalid answer…): kept for the replay's
     strip of marks, every one, the events list's lines past its last 300 too; its mark, or null. */
  function noteMark(ev, text) {
    var mark = window.RefereeTable.eventMark(ev);
    if (!mark) return null;
    S.marks.push({ seq: ev.seq, kind: mark.kind, cls: mark.cls, icon: mark.icon, text: text });
    if (S.shown.length) drawMarks();
    return mark;
  }

  /* ---------- following a game ---------- */
  function refresh() {
    if (S.refreshing) { S.dirty = true; return S.refreshing; }
    S.refreshing = (async function () {
      try {
        do {
          S.dirty = false;
          var view = await get("/v1/games/" + S.id);
          /* the same view as shown (the presence refresh, mostly): not drawn again, so a click
             landing as the view comes back is not lost with the elements a redraw replaces */
          var text = scriptJson(view);
          if (!S.replaying && text !== $("shown-view").textContent) draw(view, text);
        } while (S.dirty);
      } finally { S.refreshing = false; }
    })();
    return S.refreshing;
  }
  async function onEvent(ev) {
    var problem = await S.received.add(ev);
    var plain = V.plain(ev);
    if (problem && !S.liveProblem) {
      S.liveProblem = problem;
      verdict("false", "NOT verified: " + problem.check + " fails at seq " + problem.seq, problem.seq, problem.check, problem.detail);
    } else if (!S.liveProblem && !S.finished) {
      verdict("pending", "pending: " + S.received.count + " events received, every link chains", null, null,
        "the whole log is checked (salts, seed, signature) once the game is over");
    }
    S.lastSeq = plain.seq;
    document.body.setAttribute("data-received", String(S.received.count));
    showEvent(plain);
    if (plain.type === "seed_revealed") S.finished = true;
    refresh();
  }
  async function stream() {
    var headers = auth();
    headers.Accept = "text/event-stream";
    if (S.lastSeq) headers["Last-Event-ID"] = String(S.lastSeq);
    var r = await fetch("/v1/games/" + S.id + "/events/stream?after=" + S.lastSeq, { headers: headers, cache: "no-store" });
    if (!r.ok || !r.body) throw new Error("stream: " + r.status);
    var reader = r.body.getReader(), dec = new TextDecoder(), buf = "";
    for (;;) {
      var chunk = await reader.read();
      if (chunk.done) return;
      buf += dec.decode(chunk.value, { stream: true });
      var blocks = buf.split(/\r?\n\r?\n/);
      buf = blocks.pop();
      for (var b = 0; b < blocks.length; b++) {
        var fields = blocks[b].split(/\r?\n/), name = "message";
        var data = fields.filter(function (l) { return l.indexOf("data:") === 0; })
          .map(function (l) { return l.slice(5).replace(/^ /, ""); }).join("\n");
        fields.forEach(function (l) { if (l.indexOf("event:") === 0) name = l.slice(6).trim(); });
        if (!data) continue;
        if (name === "end") {  /* the stream's last word: {status, version} */
          if (JSON.parse(data).status === "finished") S.finished = true;
          continue;
        }
        await onEvent(V.parse(data));
      }
      if (S.finished) { reader.cancel().catch(function () {}); return; }
    }
  }
  async function poll() {
    var text = await get("/v1/games/" + S.id + "/events?after=" + S.lastSeq + "&wait=25", "text");
    var body = V.parse(text);
    var events = body.get("events") || [];
    for (var k = 0; k < events.length; k++) await onEvent(events[k]);
  }
  async function follow() {
    var failures = 0;
    while (!S.finished) {
      try { await stream(); failures = 0; }
      catch (e) {
        failures++;
        try { await poll(); } catch (e2) { await sleep(Math.min(10000, 500 * failures)); }
      }
      if (!S.finished) await sleep(300);
    }
    await refresh();
    await finished();
  }

  /* ---------- a finished game: replay and the whole log ---------- */
  async function finished() {
    S.finished = true;
    var replay = await get("/v1/games/" + S.id + "/replay");
    S.shown = replay.shown_versions || [replay.version];
    S.replaying = true;
    window.RefereeTable.gameOver();
    draw(replay);
    var slider = $("slider");
    slider.min = "0";
    slider.max = String(S.shown.length - 1);
    slider.value = String(S.shown.length - 1);
    $("replay-version").textContent = String(replay.version);
    $("replay").hidden = false;
    drawMarks();
    slider.addEventListener("input", function () { showVersion(Number(slider.value)); });
    document.addEventListener("keydown", function (e) {
      if (document.activeElement === slider || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
      var i = Math.max(0, Math.min(S.shown.length - 1, Number(slider.value) + (e.key === "ArrowRight" ? 1 : -1)));
      slider.value = String(i);
      showVersion(i);
    });
    await verifyServed();
  }
  /* The replay's strip under the slider: a mark at each default the referee played, where the slider
     shows it (the first version shown at or after its event); a click goes there. */
  function drawMarks() {
    var strip = $("replay-marks"), n = S.shown.length;
    strip.replaceChildren();
    strip.hidden = !S.marks.length;
    var rows = [];  /* where each row's last mark stands: a mark too near it goes on the next row */
    S.marks.slice().sort(function (a, b) { return a.seq - b.seq; }).forEach(function (m) {
      var i = 0;
      while (i < n - 1 && S.shown[i] < m.seq) i++;
      var left = n > 1 ? (100 * i) / (n - 1) : 0, row = 0;
      while (row < rows.length && left - rows[row] < 3) row++;
      row = Math.min(row, 2);  /* three rows at most: a bot failing at every turn makes a dense band */
      rows[row] = left;
      var b = el("button", "replay-mark " + m.cls, m.icon);
      b.type = "button";
      b.style.left = left + "%";
      b.style.top = (row * 22) + "px";
      b.setAttribute("data-seq", String(m.seq));
      b.setAttribute("data-index", String(i));
      b.setAttribute("data-version", String(S.shown[i]));
      b.setAttribute("aria-label", "version " + S.shown[i] + ": " + m.text);
      b.title = "version " + S.shown[i] + ": " + m.text;
      b.addEventListener("click", function () { $("slider").value = String(i); showVersion(i); });
      strip.appendChild(b);
    });
    strip.style.height = (Math.max(1, rows.length) * 22) + "px";
    $("replay-legend").hidden = !S.marks.length;
  }
  async function showVersion(i) {
    var version = S.shown[i], ask = ++S.replayAsk;
    $("replay-version").textContent = String(version);
    var view = await get("/v1/games/" + S.id + "/replay?version=" + version);
    if (ask !== S.replayAsk) return;
    draw(view);
    eventsAt(version);  /* the events list in step: up to the version shown */
    window.RefereeTable.lastLine();
  }
  async function verifyServed() {
    /* the log is public once the game is over: a plain link, no token needed (none is ever put in a URL) */
    $("log-link").href = "/v1/games/" + encodeURIComponent(S.id) + "/log";
    $("log-link").setAttribute("download", "game-" + S.id + ".ndjson");
    $("downloads").hidden = false;
    verdict("pending", "checking the whole log…", null, null, "");
    var bytes = await get("/v1/games/" + S.id + "/log", "bytes");
    var keys = await get("/v1/keys");
    var r = await V.verifyLog(bytes, keys, function (seq, n) { $("verify-detail").textContent = "checked " + seq + " of " + n + " events"; });
    if (S.eventsShown === 0 && r.events) {
      /* the events before those shown still tell the table what it needs to say the rest (where a figure stood) */
      r.events.slice(0, -MAX_EVENTS).forEach(function (ev) { sayEvent(V.plain(ev)); });  /* kept for the replay */
      r.events.slice(-MAX_EVENTS).forEach(function (ev) { showEvent(V.plain(ev)); });
    }
    showResult(r, "the referee's log");
    if (r.ok && window.RefereeTlog) await checkInclusion(r, keys);
  }
  /* the game's final head in the transparency log (docs/transparency.md): proven against the signed checkpoint */
  async function checkInclusion(r, keys) {
    var p = $("inclusion");
    p.hidden = false;
    p.textContent = "checking the game's place in the transparency log…";
    var proof;
    try { proof = await get("/v1/transparency/proof/inclusion?game=" + encodeURIComponent(S.id)); }
    catch (e) { p.setAttribute("data-included", "false"); p.textContent = "transparency log: no proof served (" + e.message + ")"; return; }
    var out = await window.RefereeTlog.checkInclusion(r, proof, keys);
    p.setAttribute("data-included", out.ok ? "true" : "false");
    p.textContent = out.ok ? "transparency log: " + out.detail : "transparency log: NOT included: " + out.detail;
  }

  /* ---------- a log file ---------- */
  async function verifyFiles(files) {
    var log = null, keys = null;
    $("verdict").setAttribute("data-file", "");
    for (var k = 0; k < files.length; k++) {
      var bytes = new Uint8Array(await files[k].arrayBuffer());
      var asKeys = null;
      try { asKeys = JSON.parse(new TextDecoder().decode(bytes)); } catch (e) { asKeys = null; }
      if (asKeys && typeof asKeys === "object" && Array.isArray(asKeys.keys)) keys = asKeys; else log = { name: files[k].name, bytes: bytes };
    }
    if (!log) { verdict("pending", "no log among the files given", null, null, "a log is the NDJSON of GET /v1/games/{id}/log"); return; }
    if (!keys && location.protocol !== "file:") { try { keys = await get("/v1/keys"); } catch (e) { keys = null; } }
    verdict("pending", "checking " + log.name + "…", null, null, "");
    var r = await V.verifyLog(log.bytes, keys, function (seq, n) { $("verify-detail").textContent = "checked " + seq + " of " + n + " events"; });
    showResult(r, "the file " + log.name);
    $("verdict").setAttribute("data-file", log.name);  /* whose verdict this is */
  }
  function wireFiles() {
    var input = $("file"), drop = $("drop");
    input.addEventListener("change", function () { if (input.files.length) verifyFiles(Array.from(input.files)); });
    drop.addEventListener("dragover", function (e) { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", function () { drop.classList.remove("over"); });
    document.addEventListener("dragover", function (e) { e.preventDefault(); });
    document.addEventListener("drop", function (e) {
      e.preventDefault(); drop.classList.remove("over");
      if (e.dataTransfer && e.dataTransfer.files.length) verifyFiles(Array.from(e.dataTransfer.files));
    });
  }

  /* ---------- the index ---------- */
  async function index() {
    $("index").hidden = false;
    $("subtitle").textContent = "live and recent games";
    await listGames();
    verdict("pending", "open a game to verify it, or give a log file", null, null, "");
    await (await table()).index();
  }

  /** The Games list, anew: on the index page's load and after the new-game form starts a game. */
  async function listGames() {
    /* people's games only: a busy pool or tournament starts one every second or so */
    var body = await get("/v1/games?limit=50&source=people");
    var ul = $("games");
    ul.replaceChildren();
    if (!(body.games || []).length) ul.appendChild(el("li", null, "No game yet: start one with the form above."));
    (body.games || []).forEach(function (g) {
      var li = el("li");
      var a = el("a", null, g.ruleset + " · " + g.id);
      a.href = "/watch/" + encodeURIComponent(g.id);
      li.appendChild(a);
      li.appendChild(document.createTextNode(" — " + g.status + ", version " + g.version + ", " +
        (g.seats || []).map(function (s) {
          if ((g.open_seats || []).indexOf(s.seat) >= 0) return "seat " + s.seat + " open to claim";
          return s.name || (s.bot ? "bot " + s.bot : "seat " + s.seat);
        }).join(", ")));
      ul.appendChild(li);
    });
  }

  async function openGame() {
    var view = await get("/v1/games/" + S.id);
    S.received = new V.Received();
    await (await table()).open(S.id, view, S.token);
    draw(view);
    if (view.status === "finished") await finished(); else await follow();
  }

  function start() {
    var m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    S.token = m ? decodeURIComponent(m[1]) : null;
    wireFiles();
    if (!window.crypto || !crypto.subtle) { verdict("false", "this page needs a secure context (https, http://127.0.0.1 or file://)", null, "context", ""); return; }
    if (location.protocol === "file:") {
      $("subtitle").textContent = "offline: give a log file (and the referee's keys.json) to verify it";
      verdict("pending", "no log yet", null, null, "");
      return;
    }
    var g = /\/watch\/([^\/]+)$/.exec(location.pathname);
    var run = g ? (S.id = decodeURIComponent(g[1]), openGame()) : index();
    run.catch(function (e) { $("subtitle").textContent = String(e.message || e); });
  }
  /* the table asks for the seat's view again after its own move, and the Games list after starting a game */
  window.RefereeWatch = { refresh: refresh, listGames: listGames };
  document.addEventListener("DOMContentLoaded", start);
})();
