/* BANG! drawn as BANG! (issue 38): cards in play and hands on each seat
   (one's own face up, others' as backs with a count), the deck and the
   discard pile's top in the middle, and play by clicking: a card in hand is
   played by clicking it and then its target; answers to a window (Missed!,
   Beer when dying, a Barrel's "draw!", the General Store's pick) are
   buttons in the prompt. Every control submits a move deep-equal to one of
   view.legal_moves; nothing here decides what is legal. */

/** moves that name one card of the viewer's hand in `card` */
const CARD_MOVES = new Set(["play", "respond"]);
const PHASES = { start: "start of the turn", draw: "drawing", play: "playing cards", discard: "discarding", over: "over" };

function cardName(ctx, id) {
  const e = ctx.entry(id);
  return e ? e.name : String(id);
}
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
/** A card of the viewer's hand by name, with its rank and suit when another card there has the same
    name ("BANG! 7♦"): the moves that name one of two BANG!s say which. */
function handName(ctx, id) {
  const hand = ctx.state && Array.isArray(ctx.state.hand) ? ctx.state.hand : [];
  const e = ctx.entry(id);
  const twin = hand.some((other) => other !== id && cardName(ctx, other) === cardName(ctx, id));
  return cardName(ctx, id) + (twin && e && e.rank && e.suit ? " " + e.rank + (SUITS[e.suit] || e.suit) : "");
}
function cardList(ctx, ids) { return ids.map((id) => handName(ctx, id)).join(" and "); }

/** A legal move in words: "Play BANG! at ann", "Answer with Missed!". */
export function describeMove(move, ctx) {
  const c = move.card ? handName(ctx, move.card) : "";
  const at = typeof move.target === "number" ? ctx.seatName(move.target) : "";
  switch (move.type) {
    case "play":
      if (!move.card) return "Play a card";
      if (move.pick === "hand") return "Play " + c + " on " + at + " (a card from the hand)";
      if (move.pick) return "Play " + c + " on " + at + "'s " + cardName(ctx, move.pick);
      return "Play " + c + (at ? " at " + at : "");
    case "respond": return move.card ? "Answer with " + c : "Answer with a card";
    case "pass": return "Pass (take what comes)";
    case "end_turn": return "End the turn";
    case "discard": return move.cards ? "Discard " + cardList(ctx, move.cards) : "Discard";
    case "sid": return move.cards ? "Discard " + cardList(ctx, move.cards) + " to regain 1 life" : "Discard two cards to regain 1 life";
    case "keep": return move.cards ? "Keep " + cardList(ctx, move.cards) : "Keep two cards";
    case "choose": return move.card ? "Take " + c : "Take a card";
    case "barrel": return move.source === "jourdonnais" ? "Draw! for Jourdonnais' barrel" : "Draw! for the Barrel";
    case "draw":
      if (!move.source) return "Draw";
      if (move.source === "deck") return "Draw from the deck";
      if (move.source === "discard") return "Draw the discard pile's top card";
      return "Draw a card from " + at + "'s hand";
    case "resign": return "Resign";
    default: return null;
  }
}

/** An event in words, without its actor. */
export function describeEvent(ev, ctx) {
  const d = ev.data || {};
  const self = typeof d.seat === "number" && d.seat === ev.actor;
  const who = self ? "" : (typeof d.seat === "number" ? ctx.seatName(d.seat) + " " : "");
  const cards = (v) => Array.isArray(v) ? (v.length ? v.map((id) => cardName(ctx, id)).join(" and ") : "no card")
    : (v + " card" + (v === 1 ? "" : "s"));
  switch (ev.type) {
    case "card_played":
      return who + "played " + cardName(ctx, d.card) + (typeof d.target === "number" ? " at " + ctx.seatName(d.target) : "") +
        (d.pick ? " (" + (d.pick === "hand" ? "a card from the hand" : cardName(ctx, d.pick)) + ")" : "");
    case "cards_drawn": return who + "drew " + cards(d.cards);
    case "card_discarded": return who + "discarded " + cards(d.cards);
    case "life_lost": return who + "lost " + d.amount + " life" + (typeof d.by === "number" ? " to " + ctx.seatName(d.by) : "");
    case "life_gained": return who + "regained " + d.amount + " life";
    case "player_eliminated":
      return who + "was eliminated: " + ctx.name(d.role) + (typeof d.by === "number" ? ", by " + ctx.seatName(d.by) : "");
    case "turn_started": return ctx.seatName(d.seat) + "'s turn begins";
    case "draw_checked": return who + "\"draw!\": " + (d.card ? cardName(ctx, d.card) : "no card") + " (" + String(d.reason).replace(/_/g, " ") + ")";
    case "awaiting": {
      const p = d.prompt;
      return "waiting for " + (d.to_act || []).map((s) => ctx.seatName(s)).join(", ") +
        (p && p.kind ? " (" + String(p.kind).replace(/_/g, " ") + ")" : " (" + (PHASES[d.phase] || d.phase) + ")");
    }
    default: return null;
  }
}

/** What the open prompt awaits, after "Waiting for ann to …" (the core names the awaited seat). */
export function describePending(pd, ctx) {
  const by = (k) => typeof pd[k] === "number" ? (pd[k] === ctx.mySeat ? "your" : ctx.seatName(pd[k]) + "'s") : "a";
  const plural = (n, one) => n + " " + one + (n === 1 ? "" : "s");
  switch (pd.kind) {
    case "shot": return "answer " + by("shooter") + " " + cardName(ctx, pd.card) + " (" + pd.needed + " Missed! needed" +
      (pd.misses ? ", " + pd.misses + " so far" : "") + ")";
    case "indians": return "answer " + by("source") + " Indians! with a BANG! or lose 1 life";
    case "duel": return "answer the Duel " + (typeof pd.other === "number" ? "with " + (pd.other === ctx.mySeat ? "you" : ctx.seatName(pd.other)) + " " : "") +
      "with a BANG! or lose 1 life";
    case "dying": return "drink a Beer or be eliminated (life " + pd.life + ")";
    case "store": return "take a card from the General Store";
    case "lucky": return "choose the card of a \"draw!\" (Lucky Duke)";
    case "kit": return "keep two of the cards drawn (Kit Carlson)";
    case "discard": return "discard " + plural(pd.count, "card") + " down to their life";
    case "play": return "play cards or end the turn";
    case "draw": return "draw cards";
    case "draw_choice": return "choose where to draw the first card from";
    case "after_hit": return "answer the hit (a character's ability)";
    case "start": return "begin the turn";
    default: return null;
  }
}

/** On each seat: its cards in play face up, its hand (backs with a count;
    the viewer's own as "your hand, below") and how far it is from the viewer. */
export function seatParts(seat, index, view, ctx) {
  const box = ctx.el("div", "bang-seat");
  const inPlay = seat.in_play || [];
  const row = ctx.el("div", "in-play");
  row.appendChild(ctx.el("span", "zone-label", inPlay.length ? "in play:" : "nothing in play"));
  inPlay.forEach((id) => row.appendChild(ctx.card(id, {})));
  box.appendChild(row);
  const hand = ctx.el("div", "hand-count");
  hand.setAttribute("data-hand", String(seat.hand));
  const own = index === ctx.mySeat && Array.isArray(ctx.state.hand) ? ctx.state.hand : null;
  if (own && (view.legal_moves || []).length) {
    hand.appendChild(ctx.el("span", "zone-label", "hand: " + own.length + " card" + (own.length === 1 ? "" : "s") + " (yours, below)"));
  } else if (own) {  /* no prompt below to hold it: the hand face up on the seat */
    hand.appendChild(ctx.el("span", "zone-label", own.length ? "hand:" : "hand: empty"));
    own.forEach((id) => hand.appendChild(ctx.card(id, {})));
  } else hand.appendChild(ctx.backs(seat.hand, "card"));
  box.appendChild(hand);
  const sight = ctx.state.distances;
  if (sight && index !== ctx.mySeat && sight.distance && sight.distance[index] !== null && sight.distance[index] !== undefined) {
    box.appendChild(ctx.el("p", "distance", "distance " + sight.distance[index] + (sight.in_reach[index] ? " · in reach" : " · out of reach")));
  }
  return box;
}

/** The middle: whose turn and which phase, the deck, the discard pile's top,
    the cards a General Store or a "draw!" laid out. */
export function centre(view, ctx) {
  const s = ctx.state;
  const box = ctx.el("div", "bang-centre");
  if (typeof s.turn === "number") {
    box.appendChild(ctx.el("p", "turn", ctx.seatName(s.turn) + "'s turn · " + (PHASES[s.phase] || s.phase) +
      (s.bangs ? " · " + s.bangs + " BANG! played" : "")));
  }
  const piles = ctx.el("div", "piles");
  const deck = ctx.el("div", "pile");
  deck.appendChild(ctx.el("span", "pile-label", "deck"));
  deck.appendChild(ctx.backs(s.deck, "card"));
  piles.appendChild(deck);
  const discard = ctx.el("div", "pile");
  const top = (s.discard || [])[(s.discard || []).length - 1];
  discard.appendChild(ctx.el("span", "pile-label", "discard pile" + (top ? "" : ": empty")));
  if (top) discard.appendChild(ctx.card(top, {}));
  piles.appendChild(discard);
  box.appendChild(piles);
  const pd = view.pending;
  if (pd && Array.isArray(pd.cards) && pd.cards.length) {
    const laid = ctx.el("div", "laid-out");
    laid.appendChild(ctx.el("span", "zone-label", pd.kind === "store" ? "General Store:" : "drawn:"));
    pd.cards.forEach((id) => laid.appendChild(ctx.card(id, {})));
    box.appendChild(laid);
  }
  if (Array.isArray(s.roles_in_game)) {
    box.appendChild(ctx.el("p", "muted roles-in-game", "roles in this game: " + s.roles_in_game.map((r) => ctx.name(r)).join(", ")));
  }
  return box;
}

/** What the open window asks of the viewer, in words. */
function ask(view, ctx) {
  const pd = view.pending;
  if (!pd) return "";
  const by = (k) => typeof pd[k] === "number" ? ctx.seatName(pd[k]) : "someone";
  switch (pd.kind) {
    case "shot": return by("shooter") + " shot at you with " + cardName(ctx, pd.card) + ": " + pd.needed + " Missed! needed" + (pd.misses ? " (" + pd.misses + " so far)" : "") + ".";
    case "indians": return "Indians! from " + by("source") + ": discard a BANG! or lose 1 life.";
    case "duel": return "A Duel with " + by("other") + ": answer with a BANG! or lose 1 life.";
    case "dying": return "You are dying (life " + pd.life + "): a Beer saves you.";
    case "store": return "General Store: take one card.";
    case "lucky": return "Lucky Duke: choose the card for your \"draw!\".";
    case "kit": return "Kit Carlson: keep two of the cards.";
    case "discard": return "Too many cards: discard " + pd.count + ".";
    case "play": return "Your turn: play cards by clicking them, then end the turn.";
    default: return "";
  }
}

/** The legal moves made with one card of the hand (resigning aside). */
function movesOf(view, id) {
  return (view.legal_moves || []).filter((m) => (CARD_MOVES.has(m.type) && m.card === id) ||
    (m.type === "discard" && Array.isArray(m.cards) && m.cards.length === 1 && m.cards[0] === id));
}

/** The seats the prompt asks for now, each clicked on its card: the targets
    of the card picked (one move: sent; a card from the hand or one in play:
    the seat picked, the prompt's buttons then say which), or the players
    whose hand one may draw from (Jesse Jones). */
export function seatChoices(view, ctx) {
  const picked = ctx.pick.get("card");
  const moves = picked ? movesOf(view, picked).filter((m) => typeof m.target === "number")
    : (view.legal_moves || []).filter((m) => m.type === "draw" && typeof m.target === "number");
  if (!moves.length) return null;
  const chosen = ctx.pick.get("target");
  const out = new Map();
  for (const t of new Set(moves.map((m) => m.target))) {
    const mine = moves.filter((m) => m.target === t);
    out.set(t, { chosen: chosen === t && mine.length > 1,
      label: mine.length === 1 ? describeMove(mine[0], ctx) : cardName(ctx, picked) + " at " + ctx.seatName(t) + " — choose how, below",
      choose: () => (mine.length === 1 ? ctx.submit(mine[0]) : ctx.pick.set("target", chosen === t ? null : t)) });
  }
  return out;
}

/** Play by clicking: the hand's cards (click, then the target when there is
    one: its button in the prompt or its seat's card), the window's answers
    and every other legal move as buttons. */
export function controls(view, ctx) {
  const legal = (view.legal_moves || []).filter((m) => m.type !== "resign");
  const box = ctx.el("div", "bang-controls");
  const words = ask(view, ctx);
  if (words) box.appendChild(ctx.el("p", "ask", words));
  const hand = Array.isArray(ctx.state.hand) ? ctx.state.hand : [];
  const picked = ctx.pick.get("card");
  const forCard = (id) => movesOf(view, id);
  const handBox = ctx.el("div", "hand");
  handBox.id = "hand";
  handBox.appendChild(ctx.el("h4", "zone-head", "Your hand"));
  hand.forEach((id) => {
    const moves = forCard(id);
    if (!moves.length) { handBox.appendChild(ctx.card(id, {})); return; }
    const label = moves.length === 1 ? describeMove(moves[0], ctx) : "Play " + cardName(ctx, id) + ": choose its target next";
    handBox.appendChild(ctx.card(id, { selected: picked === id, label,
      onClick: () => {
        if (moves.length === 1) { ctx.submit(moves[0]); return; }
        ctx.pick.set("target", null);
        ctx.pick.set("card", picked === id ? null : id);
      } }));
  });
  if (!hand.length) handBox.appendChild(ctx.el("span", "muted", "no cards"));
  box.appendChild(handBox);
  if (picked && forCard(picked).length > 1) {
    const targets = ctx.el("div", "targets");
    targets.id = "targets";
    const seat = ctx.pick.get("target");
    const shown = forCard(picked).filter((m) => typeof seat !== "number" || m.target === seat);
    targets.appendChild(ctx.el("span", "zone-label", cardName(ctx, picked) + " — choose" +
      (shown.some((m) => typeof m.target === "number") && typeof seat !== "number" ? " (or click the seat)" : "") + ": "));
    shown.forEach((m) => {
      const b = ctx.el("button", "move target", describeMove(m, ctx));
      b.type = "button";
      b.setAttribute("data-move", JSON.stringify(m));
      b.addEventListener("click", () => ctx.submit(m));
      targets.appendChild(b);
    });
    const cancel = ctx.el("button", "move quiet", "Cancel");
    cancel.type = "button";
    cancel.addEventListener("click", () => { ctx.pick.set("target", null); ctx.pick.set("card", null); });
    targets.appendChild(cancel);
    box.appendChild(targets);
  }
  /* the window's answers and the rest: every legal move not made by clicking a card of the hand */
  const others = legal.filter((m) => m.type !== "play" && !(m.type === "discard" && m.cards.length === 1));
  if (others.length) {
    const ul = ctx.el("ul", "move-list");
    others.forEach((m) => {
      const li = ctx.el("li");
      const b = ctx.el("button", "move" + (m.type === "respond" ? " answer" : ""), describeMove(m, ctx));
      b.type = "button";
      b.setAttribute("data-move", JSON.stringify(m));
      b.addEventListener("click", () => ctx.submit(m));
      li.appendChild(b);
      ul.appendChild(li);
    });
    box.appendChild(ul);
  }
  return box;
}

/** state keys the BANG! table draws itself: the middle, the seats, the hand */
export const drawnFacts = ["turn", "phase", "bangs", "deck", "discard", "roles_in_game", "hand", "role", "distances"];

/** The new-game form's words for BANG!'s options (the schema says which exist and what they take). */
export const options = {
  three_player: { label: "The 3-player game", hint: "No Sheriff: a Deputy, an Outlaw and a Renegade, all face up, " +
    "each hunting one of the others. The only way to play with 3 players, and only with 3.", follows: (seats) => seats === 3 },
};
