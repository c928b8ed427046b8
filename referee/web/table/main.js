/* The table (issue 38): the page's ES-module half, loaded by watch.js only
   when served over http(s) (modules do not load from file://). It draws a
   game as a game from the view vocabulary (state.seats, state.last,
   state.board, pending, result, legal_moves, deadlines) and the ruleset's
   catalogue, hands the drawing of the ruleset's own things to its plug-in
   (games/<file>.js, see PLUGINS; every export optional), and plays the
   viewing seat's moves through the JavaScript client with an idempotency
   key. watch.js keeps the feed it verifies link by link, the replay slider
   and the verdict; it calls window.RefereeTable to draw.

   A ruleset's plug-in (every export optional; null or absent: the generic part):
     seatParts(seat, index, view, ctx) -> Node|null   extras on a seat's card
     centre(view, ctx) -> Node|null                   the table's middle
     controls(view, ctx) -> Node|null                 play by clicking (the core adds "Resign…" itself)
     seatChoices(view, ctx) -> Map|null               seat -> {label, choose(), chosen}: the seats the prompt
                                                      asks for now, picked by clicking their cards
     describeMove(move, ctx) -> string|null           a legal move in words
     describeEvent(event, ctx) -> string|null         an event in words, without its actor
     track(event, memo)                               every event of the feed, in order, after its words:
                                                      what later words need (ctx.memo; e.g. where a figure stood)
     quietEvents: [type]                              bookkeeping the "Last:" line passes over (the core's too)
     describePending(pending, ctx) -> string|null     what the prompt awaits, after "Waiting for ann to …"
                                                      ("answer bot 4's Duel"; the core names the seats)
     drawnFacts: [key]                                state keys its drawing already shows
     describeFact(key, value, ctx) -> string|null     any other state key in words (null: the raw details)
     options: {key: {label, hint, scale, unit, suggested, seats, choices, follows}}
                                                      the new-game form's words for the options schema (newgame.js)
   Other parts of the page (presence, clocks, chat, a rematch…) are modules
   of their own, listed in PARTS (one line each): each exports
   part(view, ctx), called after every drawing of the table to draw that part
   in its own element; window.RefereeTable.onDraw(fn) does the same for a
   script loaded otherwise.
   ctx: {ruleset, mySeat, view, state (the state drawn: the seat's own in a
   finished game's replay), players, catalogue, entry(id), name(id), text(id),
   seatName(i), el(tag, cls, text), word(value, key), card(id, {faceUp, onClick,
   label, selected}), backs(count, what), submit(move), pick: {get, set},
   describe(move), memo}. submit() takes a move deep-equal to one of view.legal_moves. */
import { Referee, MoveRefused, VersionConflict, NotYourTurn, GameOver, Conflict, RefereeProblem, uuid4 } from "../client/index.js";
import { index as catalogueIndex, label, word, moveWords, eventWords } from "./words.js";
import { drawCard, drawBacks } from "./cards.js";
import { drawSeats, tickOne } from "./seats.js";
import { watchPresence } from "./presence.js";
import { drawPrompt } from "./prompt.js";
import { newGameForm } from "./newgame.js";
import { rematchBox } from "./rematch.js";
import { el } from "./dom.js";
import { openChat, chatSeen } from "./chat.js";
import { drawDelay, insideDelay } from "./spectators.js";
import { defaultOf, defaultWords, MARKS, tally, answersBox } from "./defaults.js";

/** ruleset id -> its plug-in module (a ruleset not listed gets the generic table):
    listed only once the file exists, since a module that fails to load is a console error */
const PLUGINS = {
  bang: "./games/bang.js",
  "bang-dice": "./games/dice.js",
  "bang-faceoff": "./games/faceoff.js",
  bluffaneer: "./games/bluffaneer.js",
};
/** the other parts of the page, each a module exporting part(view, ctx) (see above), e.g. "./presence.js" */
const PARTS = [];
/** state keys the core draws itself (the rest: the plug-in's drawing, its words, or the folded raw details) */
const DRAWN = new Set(["seats", "last", "board", "seat", "result", "pending"]);
/** events the "Last:" line passes over: bookkeeping that the prompt and the seats already say */
const QUIET = new Set(["awaiting", "flow", "secrets_sealed", "secrets_opened", "game_setup", "seed_revealed"]);

const S = { id: null, token: null, referee: null, catalogue: null, byId: new Map(), plugin: null, view: null,
  mySeat: null, links: {}, title: null, players: [], picks: new Map(), legalKey: "", notice: "", busy: false,
  memo: {}, tracked: 0, hooks: [], answers: {}, over: false, pressing: 0, held: null };

function $(id) { return document.getElementById(id); }

function seatName(i) {
  const p = S.players[i];
  return p && p.name ? p.name : "seat " + i;
}
/** "seat 0 (ann)": a seat with its number, where the number matters (the subtitle) */
function seatLabel(i) {
  const p = S.players[i];
  return "seat " + i + (p && p.name ? " (" + p.name + ")" : "");
}

/** the context every drawing function and plug-in gets (see the plug-in interface) */
function makeCtx(view, state, eyes) {
  const ctx = {
    ruleset: view.ruleset, mySeat: typeof eyes === "number" ? eyes : null, view, state, players: S.players,
    catalogue: S.catalogue, notice: S.notice,
    entry: (id) => S.byId.get(id),
    name: (id) => { const e = S.byId.get(id); return e && e.name ? e.name : String(id).replace(/_/g, " "); },
    text: (id) => { const e = S.byId.get(id); return (e && (e.text || e.goal)) || ""; },
    seatName, el, label,
    word: (v, key) => word(v, ctx, key),
    card: (id, opts) => drawCard(S.byId.get(id), id, opts || {}),
    backs: drawBacks,
    submit,
    pick: { get: (k) => S.picks.get(k), set: (k, v) => { S.picks.set(k, v); redraw(); } },
    describe: (move) => (S.plugin && S.plugin.describeMove && S.plugin.describeMove(move, ctx)) || moveWords(move, ctx),
    memo: S.memo,
  };
  return ctx;
}

function redraw() { if (S.view) draw(S.view); }

/** Which element had the focus, so a redraw gives it back (keyboard play). */
function focusKey() {
  const a = document.activeElement;
  if (!a || a === document.body || !$("table").contains(a)) return null;
  for (const attr of ["data-move", "data-card", "data-key", "id"]) if (a.getAttribute(attr)) return [attr, a.getAttribute(attr)];
  return ["inside", "moves"];
}
function restoreFocus(key) {
  if (!key) return;
  let target = null;
  if (key[0] !== "inside") {
    target = [...$("table").querySelectorAll("[" + key[0] + "]")]
      .find((e) => e.getAttribute(key[0]) === key[1] && e.tabIndex >= 0);  /* a card in play has the id too */
  }
  /* a board square that stopped being clickable (a path's step taken) hands the focus to another square */
  if ((!target || target.disabled) && key[0] === "data-key" && key[1].startsWith("square-")) {
    target = $("table").querySelector("[data-key^='square-']:not([disabled])");
  }
  if (!target || target.disabled) target = $("moves") && $("moves").querySelector("button:not([disabled])");
  /* never scroll for it: the board clicked stays where the eye is, not the moves far below */
  if (target) target.focus({ preventScroll: true });
}

function centreOf(view, state, ctx) {
  const own = S.plugin && S.plugin.centre ? S.plugin.centre(view, ctx) : null;
  if (own) return own;
  const box = el("div", "centre-generic");
  if (Array.isArray(state.discard)) {
    const top = state.discard[state.discard.length - 1];
    const pile = el("div", "pile");
    pile.appendChild(el("span", "pile-label", "discard pile (" + state.discard.length + ")"));
    if (top) pile.appendChild(ctx.card(top, {}));
    box.appendChild(pile);
  }
  if (typeof state.deck === "number") {
    const deck = el("div", "pile");
    deck.appendChild(el("span", "pile-label", "deck"));
    deck.appendChild(drawBacks(state.deck));
    box.appendChild(deck);
  }
  return box.childNodes.length ? box : null;
}

/** The result's detail with each "seat N" ("Seat N") said by the seat's name: the page's words only, the detail
    itself stays as the referee wrote it (a seat without a name keeps "seat N"). */
function namedSeats(detail) {
  return detail.replace(/\b[Ss]eat (\d+)\b/g, (whole, n) => (S.players[Number(n)] ? seatName(Number(n)) : whole));
}

/** The result's detail as a sentence: seats by name, a leading rule number ("D32: the Sheriff is dead…")
    moved to the end in brackets, as the other rulesets write it ("…wins (FO47)"). */
function resultWords(detail) {
  const m = /^([A-Z]{1,2}\d+):\s*(.+)$/.exec(detail);
  const text = namedSeats(m ? m[2] + " (" + m[1] + ")" : detail);
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!]$/.test(text) ? "" : ".");
}

/** a seat's outcome as the result says it, in a sentence about "you" */
const OUTCOME = { win: "won", loss: "lost", draw: "drew" };

/* A press on the table's controls holds a redraw until it is released and its click has run: a
   view arriving between a button's press and release (a chat line, an opponent's move, a seat coming
   back) would replace the button, and the click would land on nothing. A press held longer than
   HOLD_MS no longer holds the table. */
const HOLD_MS = 1500;
const PRESSABLE = "#table button, #table [data-card], #table [data-square]";
document.addEventListener("pointerdown", (e) => {
  if (e.target instanceof Element && e.target.closest(PRESSABLE)) S.pressing = performance.now();
}, true);
function released() {
  if (!S.pressing) return;
  S.pressing = 0;
  setTimeout(drawHeld, 0);  /* after the click the release brings */
}
["pointerup", "pointercancel"].forEach((type) => document.addEventListener(type, released, true));
window.addEventListener("blur", released);
function drawHeld() { if (S.held) draw(S.held); }

/** Draws one view (a seat's, a spectator's, or a replay's) in place of the last. */
export function draw(view) {
  if (S.pressing && performance.now() - S.pressing < HOLD_MS) {  /* drawn once the press is over */
    S.held = view;
    setTimeout(drawHeld, HOLD_MS);
    return;
  }
  if (S.held && view === S.view) view = S.held;  /* a redraw (a pick, a refusal) draws the view held back */
  S.held = null;
  const keep = focusKey();
  const [scrollX, scrollY] = [window.scrollX, window.scrollY];
  const opened = [...$("table").querySelectorAll("details[open] > summary[data-key]")].map((e) => e.getAttribute("data-key"));
  S.view = view;
  if (Array.isArray(view.seats)) S.players = view.seats;
  let state = view.state || {};
  let eyes = view.seat;
  /* a replay serves every seat's state once the game is over: a seat's token shows its own */
  if (S.mySeat !== null && Array.isArray(view.views) && view.views[S.mySeat]) { state = view.views[S.mySeat]; eyes = S.mySeat; }
  const legalKey = JSON.stringify(view.legal_moves || []);
  if (legalKey !== S.legalKey) { S.picks.clear(); S.legalKey = legalKey; }
  const ctx = makeCtx(view, state, eyes);
  const toAct = view.to_act || [];
  $("title").textContent = (S.title || view.ruleset) + " — game " + view.id;
  $("subtitle").textContent = "seen by " + (eyes === null || eyes === undefined ? "a spectator" : seatLabel(eyes)) +
    " · version " + view.version + " · " + label(view.status);
  $("table").hidden = false;
  const status = $("status");
  status.textContent = toAct.length ? "to act: " + toAct.map(seatName).join(", ") :
    (view.status === "finished" ? "the game is over" : "");
  drawDelay(view);  /* "spectators see this game 50 versions late" (issue 40 item 6) */
  const result = $("result");
  result.hidden = !view.result;
  result.textContent = "";
  if (view.result) {
    const r = view.result;
    const mine = ctx.mySeat !== null ? (r.seats || []).find((s) => s.seat === ctx.mySeat) : null;
    result.appendChild(el("strong", null, mine ? "The game is over: you " + (OUTCOME[mine.outcome] || mine.outcome) + ". " : "The game is over. "));
    result.appendChild(document.createTextNode(r.detail ? resultWords(r.detail) : label(r.reason || "")));
    result.appendChild(el("span", "result-seats", (r.seats || []).map((s) => seatName(s.seat) + " " + (OUTCOME[s.outcome] || s.outcome)).join(" · ")));
  }
  /* a finished game is drawn from its replay: its links are the view's the page opened with */
  const linked = Object.assign({}, S.links, ...["series", "next_game"].filter((k) => view[k]).map((k) => ({ [k]: view[k] })));
  const again = rematchBox(Object.assign({}, view, linked), Boolean(S.token) && S.mySeat !== null, S.referee, redraw);
  if (again) { result.appendChild(again); result.hidden = false; }
  $("prompt-wrap").replaceChildren(drawPrompt(view, ctx, S.plugin));
  if (S.busy) $("moves").querySelectorAll("button").forEach((b) => { b.disabled = true; });
  const waiting = insideDelay(view);  /* a spectator inside the delay: no state, so no table yet (issue 40 item 6) */
  $("seats-wrap").replaceChildren(...(waiting ? [] : [drawSeats(view, state, ctx, S.plugin)]));
  $("seats-wrap").parentElement.style.display = waiting ? "none" : "";  /* the felt (.tabletop), empty */
  const centre = waiting ? null : centreOf(view, state, ctx);
  $("centre").replaceChildren(...(centre ? [centre] : []));
  $("centre").hidden = !centre;
  lastLine();
  const board = Array.isArray(state.board) && state.board.every((r) => typeof r === "string") ? state.board : null;
  $("board").textContent = board ? board.join("\n") : "";
  $("board-wrap").hidden = !board || Boolean(centre);  /* a plug-in that draws the table draws its board */
  drawFacts(state, ctx);
  drawAnswers();
  $("table").querySelectorAll("summary[data-key]").forEach((e) => {
    if (opened.includes(e.getAttribute("data-key"))) e.parentElement.open = true;
  });
  if (typeof view.latest_version !== "number") chatSeen(view);  /* the table chat (chat.js), not in a replay */
  S.hooks.forEach((fn) => { try { fn(view, ctx); } catch (e) { console.warn("a table hook failed:", e); } });
  restoreFocus(keep);
  window.scrollTo(scrollX, scrollY);  /* the page redrawn in place keeps its place on screen */
}

/** The table's other public facts, as a person reads them: the plug-in's
    words for each state key its drawing does not show, one line each; what
    no words say (a plug-in ruleset's own data) folded away as the raw data. */
function drawFacts(state, ctx) {
  const drawn = new Set([...DRAWN, ...((S.plugin && S.plugin.drawnFacts) || [])]);
  const words = $("facts-words");
  const raw = $("facts");
  words.replaceChildren();
  raw.replaceChildren();
  Object.keys(state).forEach((k) => {
    if (drawn.has(k)) return;
    let said = null;
    try {
      said = S.plugin && S.plugin.describeFact ? S.plugin.describeFact(k, state[k], ctx) : null;
    } catch (e) {
      said = null;  /* a value shaped unlike the plug-in expects: shown raw */
    }
    if (said === "") return;  /* the plug-in's word: nothing worth a line */
    if (said) { words.appendChild(el("li", null, said)); return; }
    const text = JSON.stringify(state[k]);
    raw.appendChild(el("dt", null, label(k)));
    raw.appendChild(el("dd", null, text.length > 400 ? text.slice(0, 400) + "…" : text));
  });
  words.hidden = !words.childNodes.length;
  $("facts-raw").hidden = !raw.childNodes.length;
  $("facts-wrap").hidden = words.hidden && $("facts-raw").hidden;
}

/** The "Last:" line follows the feed: the newest line of the events list at
    or before the version drawn (a replay's too), bookkeeping passed over.
    watch.js calls it again whenever the list grows or the replay moves. */
export function lastLine() {
  const last = $("last");
  const version = S.view && typeof S.view.version === "number" ? S.view.version : Infinity;
  const quiet = new Set([...QUIET, ...((S.plugin && S.plugin.quietEvents) || [])]);
  const items = document.querySelectorAll("#events li[data-seq]");
  let found = null;
  for (let k = items.length - 1; k >= 0 && !found; k--) {
    const li = items[k];
    if (Number(li.getAttribute("data-seq")) <= version && !quiet.has(li.getAttribute("data-type"))) found = li;
  }
  last.hidden = !found;
  last.textContent = found ? "Last: " + found.textContent : "";
  last.setAttribute("data-seq", found ? found.getAttribute("data-seq") : "");
}

/** One event of the feed handed to the plug-in's memory (``track``), once,
    in order: the feed's words for later events may need what it says
    (where a figure stood before it moved). */
export function follow(ev) {
  if (typeof ev.seq === "number" && ev.seq <= S.tracked) return;
  if (typeof ev.seq === "number") S.tracked = ev.seq;
  tally(S.answers, ev);
  if (defaultOf(ev) || ev.type === "seed_revealed") drawAnswers();  /* the last event: the whole game counted */
  if (!S.plugin || !S.plugin.track) return;
  try {
    S.plugin.track(ev, S.memo);
  } catch (e) {
    /* an event shaped unlike the plug-in expects: its memory stays as it was */
  }
}

/** One event in words: the plug-in's words or the catalogue's phrase, after
    the actor's name where the event is the actor's own doing (its move, or
    an event about its own seat). The events a move brings about carry the
    mover as their actor too, so those about another seat (its turn, its
    life) name that seat themselves and get no prefix. */
export function eventText(ev) {
  const ctx = makeCtx(S.view || { state: {} }, (S.view && S.view.state) || {}, S.mySeat);
  const data = ev.data || {};
  const own = typeof ev.actor === "number" && (ev.type === "move" || data.seat === ev.actor);
  const defaulted = defaultOf(ev);
  if (defaulted) {
    const said = defaultWords(ev, defaulted, ctx);
    follow(ev);
    return said;
  }
  if (ev.type === "move" && !own && data.move && data.move.type === "timeout") {
    /* the system's command when a deadline of the rules passes (Bluffaneer's claim window): nobody chose it */
    follow(ev);
    return MARKS.timeout.icon + " time ran out: the rules' deadline passed";
  }
  const words = (S.plugin && S.plugin.describeEvent ? S.plugin.describeEvent(ev, ctx) : null) || eventWords(ev, ctx);
  follow(ev);  /* after its words: they are said from what was true before it */
  /* a move's own words already say what a spectator may not see ("Play a card") */
  return (own ? seatName(ev.actor) + ": " : "") + words + (ev.redacted && ev.type !== "move" ? " (partly hidden)" : "");
}

/** The mark of an event the referee played for a seat (a bot's timeout or invalid answer, the clock's, an
    away seat's default), for the events list and the replay: {kind, icon, cls, title, cause}, or null. */
export function eventMark(ev) {
  const d = defaultOf(ev);
  return d ? Object.assign({ kind: d.kind, cause: d.cause }, MARKS[d.kind]) : null;
}

/** How each bot answered (defaults.js): under the result of a finished game, or once any default was played. */
function drawAnswers() {
  const box = $("answers");
  if (!box || !S.view) return;
  const ctx = makeCtx(S.view, S.view.state || {}, S.mySeat);
  /* a replay's view is the game's at the version shown: the game itself is over (watch.js says so) */
  const drawn = answersBox(S.view, S.over || S.view.status === "finished", S.answers, ctx, el);
  box.replaceChildren(...(drawn ? [drawn] : []));
  box.hidden = !drawn;
}

/** The game is over (watch.js, before its replay): the summary of how the bots answered is the whole game's. */
export function gameOver() {
  S.over = true;
  drawAnswers();
}

/** Why a move was not taken, in words a player reads (the rule and the referee's detail where the rules said no). */
function refusalWords(e) {
  if (e instanceof MoveRefused) return "Not allowed" + (e.rule ? " (rule " + e.rule + ")" : "") + ": " + (e.detail || e.title || "the rules refuse it") + ".";
  if (e instanceof VersionConflict) return "Too late: the table moved on before your move arrived. Here it is now; choose again.";
  if (e instanceof NotYourTurn) return "It is not your turn to act now" + (e.detail ? ": " + e.detail : "") + ".";
  if (e instanceof GameOver) return "The game is already over: no more moves.";
  if (e instanceof Conflict) return "That move can no longer be made: " + (e.detail || e.title) + ".";
  if (e instanceof RefereeProblem) return "The referee did not take the move: " + (e.detail || e.title) + ".";
  return "The move could not be sent (is the connection down?): " + (e && e.message ? e.message : String(e));
}

/** A move through the client: an idempotency key, the version it was chosen
    at; a refusal is shown in words (its rule and detail), never thrown. */
async function submit(move) {
  if (S.busy) return;
  S.busy = true;
  S.notice = "";
  $("moves").querySelectorAll("button").forEach((b) => { b.disabled = true; });
  try {
    await S.referee.games.move(S.id, move, { idempotencyKey: uuid4(), expectedVersion: S.view.version });
    S.picks.clear();
  } catch (e) {
    S.notice = refusalWords(e);
  } finally {
    S.busy = false;
  }
  redraw();
  await window.RefereeWatch.refresh();
}

/** A ruleset's plug-in module, or null for a ruleset without one (the generic table). */
async function pluginFor(ruleset) {
  const path = Object.prototype.hasOwnProperty.call(PLUGINS, ruleset) ? PLUGINS[ruleset] : null;
  return path ? import(path) : null;
}

/** Opens a game: its catalogue and the ruleset's plug-in (watch.js then draws each view). */
export async function open(id, view, token) {
  S.id = id;
  S.token = token;
  S.referee = new Referee({ baseUrl: "", token });
  if (token && typeof view.seat === "number") S.mySeat = view.seat;
  S.links = { series: view.series, next_game: view.next_game };
  S.catalogue = await S.referee.rulesets.catalogue(view.ruleset);
  S.title = (await S.referee.rulesets.get(view.ruleset)).title || view.ruleset;
  S.byId = catalogueIndex(S.catalogue);
  S.plugin = await pluginFor(view.ruleset);
  for (const path of PARTS) {
    const m = await import(path);
    if (m.part) S.hooks.push(m.part);
  }
  document.body.setAttribute("data-ruleset", view.ruleset);
  openChat(S.referee, id, S.mySeat, seatName);
}

/** The index page's "new game" form. */
export async function index() {
  const referee = new Referee({ baseUrl: "" });
  $("newgame").replaceChildren(await newGameForm(referee, el, () => window.RefereeWatch.listGames(), pluginFor));
  $("newgame").hidden = false;
}

/** A part of the page kept in its own module (presence, a clock, a chat box, a rematch button…):
    `fn(view, ctx)` runs after every drawing of the table, to draw that part in its own element. */
export function onDraw(fn) {
  S.hooks.push(fn);
  if (S.view) redraw();
}

setInterval(() => document.querySelectorAll(".countdown[data-deadline]").forEach(tickOne), 1000);
watchPresence(() => S.view);
window.RefereeTable = { open, draw, eventText, eventMark, gameOver, follow, lastLine, onDraw, index };
document.dispatchEvent(new Event("referee-table"));
