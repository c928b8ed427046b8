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
     describeMove(move, ctx) -> string|null           a legal move in words
     describeEvent(event, ctx) -> string|null         an event in words, without its actor
     describePending(pending, ctx) -> string|null     what the prompt awaits, after "Waiting for ann to …"
                                                      ("answer bot 4's Duel"; the core names the seats)
   ctx: {ruleset, mySeat, view, state (the state drawn: the seat's own in a
   finished game's replay), players, catalogue, entry(id), name(id), text(id),
   seatName(i), el(tag, cls, text), word(value, key), card(id, {faceUp, onClick,
   label, selected}), backs(count, what), submit(move), pick: {get, set},
   describe(move)}. submit() takes a move deep-equal to one of view.legal_moves. */
import { Referee, MoveRefused, Conflict, RefereeProblem, uuid4 } from "../client/index.js";
import { index as catalogueIndex, label, word, moveWords, eventWords } from "./words.js";
import { drawCard, drawBacks } from "./cards.js";
import { drawSeats, tickOne } from "./seats.js";
import { drawPrompt } from "./prompt.js";
import { newGameForm } from "./newgame.js";
import { el } from "./dom.js";
import { drawDelay } from "./spectators.js";

/** ruleset id -> its plug-in module (a ruleset not listed gets the generic table):
    listed only once the file exists, since a module that fails to load is a console error */
const PLUGINS = {
  bang: "./games/bang.js",
  "bang-dice": "./games/dice.js",
  "bang-faceoff": "./games/faceoff.js",
  bluffaneer: "./games/bluffaneer.js",
};
/** state keys the core draws itself (the rest go to the "other facts" list) */
const DRAWN = new Set(["seats", "last", "board", "seat", "result"]);

const S = { id: null, token: null, referee: null, catalogue: null, byId: new Map(), plugin: null, view: null,
  mySeat: null, title: null, players: [], picks: new Map(), legalKey: "", notice: "", busy: false };

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

/** state.last in words: "bot 4: card played — card Stagecoach, target ann" */
function lastWords(last, ctx) {
  const said = pluginWords(last, ctx);
  if (said) return (typeof last.seat === "number" ? seatName(last.seat) + ": " : "") + said;
  const rest = Object.keys(last).filter((k) => k !== "kind" && k !== "seat" && last[k] !== null);
  return (typeof last.seat === "number" ? seatName(last.seat) + ": " : "") + label(last.kind) +
    (rest.length ? " — " + rest.map((k) => label(k) + " " + word(last[k], ctx, k)).join(", ") : "");
}

/** The last thing done in the plug-in's words: ``state.last`` is named like the event that did it
    (its ``kind`` the event's type, its other keys the event's data); null when the plug-in has no words. */
function pluginWords(last, ctx) {
  if (!S.plugin || !S.plugin.describeEvent) return null;
  try {
    return S.plugin.describeEvent({ type: last.kind, data: last, actor: last.seat }, ctx) || null;
  } catch (e) {
    return null;  /* a last record shaped unlike its event: the generic words below */
  }
}

/** The result's detail with each "seat N" ("Seat N") said by the seat's name: the page's words only, the detail
    itself stays as the referee wrote it (a seat without a name keeps "seat N"). */
function namedSeats(detail) {
  return detail.replace(/\b[Ss]eat (\d+)\b/g, (whole, n) => (S.players[Number(n)] ? seatName(Number(n)) : whole));
}

/** a seat's outcome as the result says it, in a sentence about "you" */
const OUTCOME = { win: "won", loss: "lost", draw: "drew" };

/** Draws one view (a seat's, a spectator's, or a replay's) in place of the last. */
export function draw(view) {
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
    result.appendChild(document.createTextNode((r.detail ? namedSeats(r.detail) : label(r.reason || "")) + " "));
    result.appendChild(el("span", null, (r.seats || []).map((s) => seatName(s.seat) + " " + (OUTCOME[s.outcome] || s.outcome)).join(" · ")));
  }
  $("prompt-wrap").replaceChildren(drawPrompt(view, ctx, S.plugin));
  if (S.busy) $("moves").querySelectorAll("button").forEach((b) => { b.disabled = true; });
  $("seats-wrap").replaceChildren(drawSeats(view, state, ctx, S.plugin));
  const centre = centreOf(view, state, ctx);
  $("centre").replaceChildren(...(centre ? [centre] : []));
  $("centre").hidden = !centre;
  const last = $("last");
  last.hidden = !state.last;
  last.textContent = state.last ? "Last: " + lastWords(state.last, ctx) : "";
  const board = Array.isArray(state.board) && state.board.every((r) => typeof r === "string") ? state.board : null;
  $("board").textContent = board ? board.join("\n") : "";
  $("board-wrap").hidden = !board || Boolean(centre);  /* a plug-in that draws the table draws its board */
  const facts = $("facts");
  facts.textContent = "";
  Object.keys(state).forEach((k) => {
    if (DRAWN.has(k)) return;
    facts.appendChild(el("dt", null, label(k)));
    facts.appendChild(el("dd", null, word(state[k], ctx, k)));
  });
  $("table").querySelectorAll("summary[data-key]").forEach((e) => {
    if (opened.includes(e.getAttribute("data-key"))) e.parentElement.open = true;
  });
  restoreFocus(keep);
  window.scrollTo(scrollX, scrollY);  /* the page redrawn in place keeps its place on screen */
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
  const words = (S.plugin && S.plugin.describeEvent ? S.plugin.describeEvent(ev, ctx) : null) || eventWords(ev, ctx);
  /* a move's own words already say what a spectator may not see ("Play a card") */
  return (own ? seatName(ev.actor) + ": " : "") + words + (ev.redacted && ev.type !== "move" ? " (partly hidden)" : "");
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
    if (e instanceof MoveRefused) S.notice = "Refused" + (e.rule ? " by rule " + e.rule : "") + ": " + (e.detail || e.title || e.code);
    else if (e instanceof Conflict) S.notice = "The table moved on before your move arrived: here it is now; choose again.";
    else if (e instanceof RefereeProblem) S.notice = "Not accepted (" + e.code + "): " + (e.detail || e.title);
    else S.notice = "The move could not be sent: " + (e && e.message ? e.message : String(e));
  } finally {
    S.busy = false;
  }
  redraw();
  await window.RefereeWatch.refresh();
}

/** Opens a game: its catalogue and the ruleset's plug-in (watch.js then draws each view). */
export async function open(id, view, token) {
  S.id = id;
  S.token = token;
  S.referee = new Referee({ baseUrl: "", token });
  if (token && typeof view.seat === "number") S.mySeat = view.seat;
  S.catalogue = await S.referee.rulesets.catalogue(view.ruleset);
  S.title = (await S.referee.rulesets.get(view.ruleset)).title || view.ruleset;
  S.byId = catalogueIndex(S.catalogue);
  const path = Object.prototype.hasOwnProperty.call(PLUGINS, view.ruleset) ? PLUGINS[view.ruleset] : null;
  S.plugin = path ? await import(path) : null;
  document.body.setAttribute("data-ruleset", view.ruleset);
}

/** The index page's "new game" form. */
export async function index() {
  const referee = new Referee({ baseUrl: "" });
  $("newgame").replaceChildren(await newGameForm(referee, el, () => window.RefereeWatch.listGames()));
  $("newgame").hidden = false;
}

setInterval(() => document.querySelectorAll(".countdown[data-deadline]").forEach(tickOne), 1000);
window.RefereeTable = { open, draw, eventText, index };
document.dispatchEvent(new Event("referee-table"));
