/* Bluffaneer at the table (issue 38): the middle of the table is a treasure
   map holding the two dice, the box, the draw pile and the discard pile;
   each seat shows its coins as coins, its card (one's own face up with its
   two symbols, the others' face down) and where it stands in the claim
   window (claimed, passed, the winning claimant); the roll, the claim or
   pass, the accept or challenge and the player to rob are buttons in the
   prompt. Everything comes from the view and the catalogue's symbols. */

import { caption, icon, listWords, moveButtons, myMoves, tokens } from "./pieces.js";

const SYMBOL_WORDS = { chest: "treasure chest", sword: "sword", ship: "pirate ship", skull: "skull and crossbones" };

function symbolName(symbol, ctx) {
  const name = ctx.name(symbol);
  return name && name !== symbol ? name : SYMBOL_WORDS[symbol] || symbol;
}

/** A symbol as a picture with its name under it. */
function symbol(symbolId, ctx, cls) {
  const box = ctx.el("span", "symbol symbol-" + symbolId + (cls ? " " + cls : ""));
  box.appendChild(icon(symbolId));
  box.appendChild(ctx.el("span", "symbol-name", symbolName(symbolId, ctx)));
  return box;
}

/** A Bluffaneer card face up: its two symbols, named; the catalogue's text on hover. */
function cardFace(card, ctx, label) {
  const box = ctx.el("span", "pair-card");
  box.setAttribute("role", "img");
  const words = listWords(card.symbols.map((s) => symbolName(s, ctx)));
  box.setAttribute("aria-label", (label ? label + ": " : "") + "card " + words);
  box.setAttribute("data-card", card.id);
  const text = ctx.text(card.id);
  if (text) box.title = text;
  for (const s of card.symbols) box.appendChild(symbol(s, ctx));
  return box;
}

function cardBack(ctx, label) {
  const box = ctx.el("span", "pair-card back");
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", label);
  box.appendChild(icon("skull"));
  box.appendChild(ctx.el("span", "back-words", "face down"));
  return box;
}

export function seatParts(seat, index, view, ctx) {
  const st = ctx.state || {};
  const s = seat;
  if (!s) return null;
  const box = ctx.el("div", "bluff-seat");
  box.appendChild(tokens(ctx, "coin", s.coins, "coin", "coins", 12));
  if (s.card) {
    box.appendChild(ctx.el("span", "row-title", "Your card"));
    box.appendChild(cardFace(s.card, ctx, "your card"));
  }
  else box.appendChild(cardBack(ctx, ctx.seatName(index) + "'s card, face down"));
  const status = [];
  if (st.phase !== "over" && st.turn === index) status.push(["roller", "the roller"]);
  if ((st.claims || []).some((c) => c.seat === index)) status.push(["claimed", "claimed the loot"]);
  if ((st.passes || []).includes(index)) status.push(["passed", "passed"]);
  if (st.claimant === index) status.push(["claimant", "the winning claim"]);
  for (const [cls, words] of status) box.appendChild(ctx.el("span", "badge bluff-" + cls, words));
  return box;
}

function dieFace(face, ctx) {
  const d = ctx.el("span", "die pirate-die face-" + face);
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", "a die showing " + symbolName(face, ctx));
  d.appendChild(icon(face));
  d.appendChild(ctx.el("span", "die-face", symbolName(face, ctx)));
  return d;
}

/** The claim window in words: open until when, who claimed, who passed. */
function windowWords(st, ctx) {
  if (st.phase === "claims") {
    const left = st.claim_window && st.claim_window.deadline ? Math.max(0, Math.ceil((st.claim_window.deadline - Date.now()) / 1000)) : null;
    return "The claim window is open" + (left !== null ? " (about " + left + " s left)" : "") + ".";
  }
  if (st.phase === "decision" && st.claimant !== null) return ctx.seatName(st.claimant) + " claims the loot; " +
    ctx.seatName(st.turn) + " accepts or cries bluff.";
  if (st.phase === "steal") return ctx.seatName(st.turn) + " picks a player to rob.";
  if (st.phase === "roll") return ctx.seatName(st.turn) + " is about to roll.";
  return "";
}

export function centre(view, ctx) {
  const st = ctx.state || {};
  const map = ctx.el("section", "treasure-map");
  map.setAttribute("aria-label", "The treasure map");
  const head = caption(ctx, "Treasure map");
  head.prepend(icon("map"));
  map.appendChild(head);
  const dice = ctx.el("div", "map-spot map-dice");
  const rolled = st.last && st.last.kind === "dice_rolled" ? st.last.seat : null;
  const roller = rolled !== null ? ctx.seatName(rolled)
    : st.phase === "roll" || st.phase === "over" ? "the last turn" : ctx.seatName(st.turn);
  dice.appendChild(ctx.el("span", "spot-title", st.dice ? "Last roll (" + roller + ")" : "No roll yet"));
  const row = ctx.el("span", "dice-row");
  for (const face of st.dice || []) row.appendChild(dieFace(face, ctx));
  if (st.dice && st.dice[0] === st.dice[1]) row.appendChild(ctx.el("span", "badge double-badge", "double"));
  dice.appendChild(row);
  map.appendChild(dice);
  const words = windowWords(st, ctx);
  if (words) map.appendChild(ctx.el("p", "map-note", words));
  const box = ctx.el("div", "map-spot map-box");
  box.appendChild(ctx.el("span", "spot-title", "The box"));
  box.appendChild(tokens(ctx, "coin", st.box, "coin in the box", "coins in the box", 12));
  map.appendChild(box);
  const piles = ctx.el("div", "map-spot map-piles");
  piles.appendChild(ctx.el("span", "spot-title", "The cards"));
  const draw = ctx.el("span", "pile");
  draw.appendChild(cardBack(ctx, "the draw pile"));
  draw.appendChild(ctx.el("span", "pile-count", (st.draw_pile || 0) + " card" + (st.draw_pile === 1 ? "" : "s") + " to draw"));
  piles.appendChild(draw);
  const discard = ctx.el("span", "pile");
  const top = (st.discard || [])[(st.discard || []).length - 1];
  if (top) discard.appendChild(cardFace(top, ctx, "top of the discard pile"));
  discard.appendChild(ctx.el("span", "pile-count", top ? (st.discard || []).length + " discarded" : "discard pile: empty"));
  piles.appendChild(discard);
  map.appendChild(piles);
  return map;
}

/** What the open prompt awaits, after "Waiting for ann to …". */
export function describePending(pd, ctx) {
  const st = ctx.state || {};
  const claimant = typeof st.claimant === "number" ? (st.claimant === ctx.mySeat ? "your" : ctx.seatName(st.claimant) + "'s") : "the";
  const said = { roll: "roll both dice", steal_target: "choose whom to rob", claim_window: "claim the loot or pass",
    decision: "believe or challenge " + claimant + " claim" };
  return said[pd.kind] || null;
}

export function controls(view, ctx) {
  const moves = myMoves(view, ctx);
  if (!moves.length) return null;
  const st = ctx.state || {};
  const titles = {
    roll: "Your turn: roll both dice", claim_window: "Does your card match the roll? Claim the loot or pass",
    decision: "Believe " + (st.claimant !== null && st.claimant !== undefined ? ctx.seatName(st.claimant) : "the claimant") + "?",
    steal_target: "Whom do you rob?",
  };
  const kind = view.pending && view.pending.kind;
  return moveButtons(ctx, moves, (m) => describeMove(m, ctx, st), titles[kind] || "Your move");
}

export function describeMove(move, ctx, state) {
  const st = state || ctx.state || {};
  const coins = (s) => {
    const seat = (st.seats || [])[s];
    return seat ? " (" + seat.coins + " coin" + (seat.coins === 1 ? "" : "s") + ")" : "";
  };
  const claimant = st.claimant !== null && st.claimant !== undefined ? ctx.seatName(st.claimant) : "the claimant";
  switch (move.type) {
    case "roll": return "Roll the dice";
    case "claim": return "Give me the loot! (claim)";
    case "pass": return "Pass";
    case "accept": return "Accept: pay " + claimant + " 1 coin";
    case "challenge": return "Bluffing! Challenge " + claimant;
    case "steal": return typeof move.target === "number" ? "Rob " + ctx.seatName(move.target) + coins(move.target) : "Rob a player";
    case "resign": return "Resign";
    default: return null;
  }
}

export function describeEvent(event, ctx) {
  const d = event.data || {};
  const who = (s) => (typeof s === "number" ? ctx.seatName(s) : "a player");
  /* the subject, left out when it is the actor the core already names */
  const subject = (s) => (s === event.actor ? "" : who(s) + " ");
  switch (event.type) {
    case "dice_rolled": return subject(d.seat) + "rolled " + listWords((d.dice || []).map((s) => symbolName(s, ctx)));
    case "claim_window_opened": return "the claim window opened";
    case "claimed": return subject(d.seat) + "claimed the loot";
    case "passed": return subject(d.seat) + "passed";
    case "claim_window_closed": return "the claim window closed" + (d.winner !== null && d.winner !== undefined
      ? ": " + who(d.winner) + "'s claim counts" : " without a claim");
    case "claim_accepted": return subject(d.seat) + "accepted the claim of " + who(d.claimant);
    case "claim_challenged": return subject(d.seat) + "cried bluff at " + who(d.claimant);
    case "coins_moved": return (d.transfers || []).map((t) => (t.from === null || t.from === undefined ? "the box" : who(t.from)) +
      " paid " + t.amount + " coin" + (t.amount === 1 ? "" : "s") + " to " +
      (t.to === null || t.to === undefined ? "the box" : who(t.to))).join("; ") || "no coin moved";
    case "card_revealed": return subject(d.seat) + "showed " + listWords((d.symbols || []).map((s) => symbolName(s, ctx))) +
      (d.matches ? ": a match" : ": no match");
    case "card_drawn": return subject(d.seat) + "drew a card";
    case "turn_ended": return (d.seat === event.actor ? "turn ended" : who(d.seat) + "'s turn ended") + "; " + who(d.next) + " rolls next";
    case "resigned": return subject(d.seat) + "resigned";
    case "game_ended": return "the game ended; " + who(d.winner) + " wins";
    default: return null;
  }
}

/** The players one may rob, each clicked on its seat's card. */
export function seatChoices(view, ctx) {
  const moves = myMoves(view, ctx).filter((m) => m.type === "steal" && typeof m.target === "number");
  if (!moves.length) return null;
  return new Map(moves.map((m) => [m.target, { label: describeMove(m, ctx), choose: () => ctx.submit(m) }]));
}

/** state keys the treasure map and the seats draw themselves */
export const drawnFacts = ["you", "players", "phase", "turn", "box", "dice", "claim_window", "claims", "passes", "claimant",
  "discard", "draw_pile"];

/** The rest of the state in words: the dice's faces, the claim window's length, the last coin flip. */
export function describeFact(key, value, ctx) {
  if (key === "claim_window_ms" && typeof value === "number") {
    return "After each roll, the claim window stays open " + seconds(value) + ".";
  }
  if (key === "die_faces" && Array.isArray(value)) {
    const counts = new Map();
    value.forEach((f) => counts.set(f, (counts.get(f) || 0) + 1));
    return "Each die's six faces: " + listWords([...counts].map(([f, n]) => (n > 1 ? n + " × " : "") + symbolName(f, ctx))) + ".";
  }
  if (key === "last_flip") {
    if (!value || !Array.isArray(value.among)) return "";
    const who = (s) => ctx.seatName(s);
    return "The last tie, " + (value.kind === "final" ? "at the end" : "between claims made at the same moment") + ", among " +
      listWords(value.among.map(who)) + ", was settled by lot: " + who(value.seat) + ".";
  }
  return null;
}

function seconds(ms) {
  const s = Math.round(ms / 100) / 10;
  return s + " second" + (s === 1 ? "" : "s");
}

/** The new-game form's words for Bluffaneer's options: the claim window in
    seconds (people need longer than the referee's default, made for bots). */
export const options = {
  claim_window_ms: { label: "Claim window", unit: "seconds", scale: 1000, suggested: 15000,
    hint: "how long everyone has to claim the loot after each roll" },
  first_seat: { label: "First to roll", seats: true, unset: "drawn by lot", hint: "" },
};
