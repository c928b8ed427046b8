/* BANG! The Dice Game at the table (issue 38): the dice as dice, each face
   by its picture and its catalogue name, the dice kept since the last roll
   marked as kept; the arrows, the Chief's Arrow, the Ghost and the ghost
   tokens as things; the dice to reroll picked by clicking them; every other
   answer to the prompt as a button in words. Everything drawn comes from the
   view (state.seats, state.dice, state.last, legal_moves) and the catalogue. */

import { actionButton, caption, icon, listWords, marked, moveButton, moveButtons, myMoves, sameMove, tokens }
  from "./pieces.js";

/** face id -> [picture, mark over it] */
const FACES = {
  arrow: ["arrow", ""], dynamite: ["dynamite", ""], shot1: ["target", "1"], shot2: ["target", "2"], beer: ["beer", ""],
  gatling: ["gatling", ""], broken_arrow: ["broken_arrow", ""], bullet: ["bullet", ""],
  double_shot1: ["target", "1×2"], double_shot2: ["target", "2×2"], double_gatling: ["gatling", "×2"],
  double_beer: ["beer", "×2"],
};
const PICKED = "dice-reroll";
const TARGET = "dice-target";

function faceName(face, ctx) { return ctx.name(face); }

function dieKind(kind, ctx) {
  return kind && kind !== "base" ? ctx.name(kind) : "";
}

/** One die: its face's picture and name, its number, its kind when an Old
    Saloon die, and what is true of it now (kept, locked, picked) in words. */
function drawDie(die, ctx, opts) {
  const [pic, mark] = FACES[die.face] || ["target", "?"];
  const kind = dieKind(die.kind, ctx);
  /* its words, in reading order, are its name: "die 1 Beer Coward kept" (a button: pressed when picked) */
  const box = ctx.el(opts.onClick ? "button" : "span", "die die-" + (die.kind || "base") + " face-" + die.face);
  box.setAttribute("data-die", String(die.die));
  box.setAttribute("data-key", "die-" + die.die);
  box.setAttribute("data-face", die.face);
  if (opts.kept) box.classList.add("kept");
  if (opts.picked) box.classList.add("picked");
  if (opts.locked) box.classList.add("locked");
  box.appendChild(ctx.el("span", "die-number", "die " + die.die));
  box.appendChild(mark ? marked(pic, mark) : icon(pic));
  box.appendChild(ctx.el("span", "die-face", faceName(die.face, ctx)));
  if (kind) box.appendChild(ctx.el("span", "die-kind", kind));
  const flags = ctx.el("span", "die-flags");
  if (opts.kept) { flags.appendChild(icon("pin")); flags.appendChild(ctx.el("span", "", "kept")); }
  if (opts.locked) flags.appendChild(ctx.el("span", "", "locked"));
  if (opts.picked) flags.appendChild(ctx.el("span", "", "to reroll"));
  box.appendChild(flags);
  if (opts.onClick) {
    box.type = "button";
    box.setAttribute("aria-pressed", opts.picked ? "true" : "false");
    box.title = "Click to " + (opts.picked ? "keep" : "reroll") + " this die";
    box.addEventListener("click", opts.onClick);
  }
  return box;
}

/** The dice numbers any legal reroll names (dynamite and the like are never among them). */
function rerollable(moves) {
  const out = new Set();
  for (const m of moves) if (m.type === "reroll") for (const d of m.dice) out.add(d);
  return out;
}

/** The dice picked to reroll, kept only while they may still be rerolled. */
function picked(ctx, moves) {
  const free = rerollable(moves);
  return ((ctx.pick.get(PICKED) || [])).filter((d) => free.has(d)).sort((a, b) => a - b);
}

export function seatParts(seat, index, view, ctx) {
  const s = seat;
  if (!s) return null;
  const box = ctx.el("div", "dice-seat");
  if (s.ghost) {
    const g = ctx.el("span", "badge ghost-badge");
    g.appendChild(icon("ghost"));
    g.appendChild(ctx.el("span", "", "the Ghost: still rolls, cannot be hit"));
    box.appendChild(g);
  }
  if (s.resigned) box.appendChild(ctx.el("span", "badge", "resigned"));
  if (s.arrows || s.alive) box.appendChild(tokens(ctx, "arrow", s.arrows, "arrow", "arrows", 9));
  if (s.chief_arrow) {
    const c = ctx.el("span", "badge chief-badge");
    c.appendChild(icon("arrow"));
    c.appendChild(ctx.el("span", "", "Chief's Arrow (counts as 2)"));
    box.appendChild(c);
  }
  if (s.token) {
    const [pic, mark] = FACES[s.token.face] || ["target", "?"];
    const t = ctx.el("span", "badge token-badge");
    t.appendChild(mark ? marked(pic, mark) : icon(pic));
    t.appendChild(ctx.el("span", "", "Ghost token: " + faceName(s.token.face, ctx) +
      (s.token.dice > 1 ? " on 2 dice" : "")));
    box.appendChild(t);
  }
  return box;
}

export function centre(view, ctx) {
  const st = ctx.state || {};
  const moves = myMoves(view, ctx);
  const mine = moves.some((m) => m.type === "reroll");
  const free = rerollable(moves);
  const chosen = new Set(picked(ctx, moves));
  const wrap = ctx.el("div", "dice-table");
  const tray = ctx.el("section", "dice-tray");
  tray.setAttribute("aria-label", "The dice");
  tray.appendChild(caption(ctx, st.rolls ? "Dice of " + ctx.seatName(st.turn) + " — roll " + st.rolls + " of " + st.max_rolls
    : ctx.seatName(st.turn) + " is about to roll"));
  const last = st.last;
  const rolled = new Set(last && last.rolled ? last.rolled : []);
  const dice = st.dice || [];
  const row = ctx.el("div", "dice-row");
  for (const die of dice) {
    const kept = st.rolls > 1 && !rolled.has(die.die);
    const locked = mine && !free.has(die.die);
    const onClick = mine && free.has(die.die) ? () => {
      const next = new Set(chosen);
      if (next.has(die.die)) next.delete(die.die); else next.add(die.die);
      ctx.pick.set(PICKED, [...next].sort((a, b) => a - b));
    } : null;
    row.appendChild(drawDie(die, ctx, { kept, locked, picked: chosen.has(die.die), onClick }));
  }
  if (!dice.length) row.appendChild(ctx.el("p", "muted", "No dice rolled yet this turn."));
  tray.appendChild(row);
  if (st.saloon) tray.appendChild(ctx.el("p", "dice-note", "Old Saloon die this turn: " + ctx.name(st.saloon)));
  const shots = st.shots || {};
  if ((shots.declared || []).length) {
    const times = new Map();  /* each target once, with its count: "ann twice", not "ann and ann" */
    shots.declared.forEach((d) => times.set(d.target, (times.get(d.target) || 0) + (d.double ? 2 : 1)));
    tray.appendChild(ctx.el("p", "dice-note shots-fired", "Shots fired this turn: " + listWords([...times].map(([t, n]) =>
      ctx.seatName(t) + (n === 2 ? " twice" : n > 2 ? " " + n + " times" : "")))));
  }
  wrap.appendChild(tray);
  const pile = ctx.el("section", "arrow-pile");
  pile.setAttribute("aria-label", "The arrow pile");
  pile.appendChild(caption(ctx, "Arrow pile"));
  pile.appendChild(tokens(ctx, "arrow", st.pile, "arrow in the pile", "arrows in the pile", 9));
  if (st.chief_arrow_in_pile) {
    const c = ctx.el("span", "badge chief-badge");
    c.appendChild(icon("arrow"));
    c.appendChild(ctx.el("span", "", "the Chief's Arrow is in the pile"));
    pile.appendChild(c);
  }
  wrap.appendChild(pile);
  return wrap;
}

export function controls(view, ctx) {
  const moves = myMoves(view, ctx);
  if (!moves.length) return null;
  const box = ctx.el("div", "dice-controls");
  const rerolls = moves.filter((m) => m.type === "reroll");
  if (rerolls.length) {
    const chosen = picked(ctx, moves);
    const move = rerolls.find((m) => sameMove(m.dice, chosen)) || null;
    box.appendChild(ctx.el("p", "hint", chosen.length
      ? "Picked to reroll: " + listWords(chosen.map((d) => "die " + d)) + "."
      : "Click the dice you want to reroll, then reroll them; or stop and keep them all."));
    const group = ctx.el("div", "move-group");
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", "Reroll or stop");
    if (move) {
      const b = moveButton(ctx, move, describeMove(move, ctx), "primary");
      b.addEventListener("click", () => ctx.pick.set(PICKED, []));
      group.appendChild(b);
    } else {
      group.appendChild(actionButton(ctx, "Reroll the picked dice", () => {}, { disabled: true,
        label: "Reroll the picked dice (pick one or more dice first)" }));
    }
    if (chosen.length) group.appendChild(actionButton(ctx, "Clear the picks", () => ctx.pick.set(PICKED, [])));
    for (const m of moves.filter((x) => x.type === "stop")) group.appendChild(moveButton(ctx, m, describeMove(m, ctx)));
    box.appendChild(group);
    const rest = moves.filter((m) => m.type !== "reroll" && m.type !== "stop");
    if (rest.length) box.appendChild(moveButtons(ctx, rest, (m) => describeMove(m, ctx)));
    return box;
  }
  /* a seat picked on its card (a shot twice, a die to haunt with): its moves only */
  const seat = ctx.pick.get(TARGET);
  const shown = typeof seat === "number" ? moves.filter((m) => m.target === seat) : moves;
  box.appendChild(moveButtons(ctx, shown.length ? shown : moves, (m) => describeMove(m, ctx), prompting(view, ctx)));
  if (typeof seat === "number" && shown.length) box.appendChild(actionButton(ctx, "Show every choice", () => ctx.pick.set(TARGET, null)));
  return box;
}

/** The seats the prompt asks for (a shot's target, a beer's, who returns an
    arrow…), each clicked on its card: its one move sent, or, with several
    (twice or once, which die), the prompt's buttons narrowed to that seat. */
export function seatChoices(view, ctx) {
  const moves = myMoves(view, ctx).filter((m) => typeof m.target === "number");
  if (!moves.length) return null;
  const chosen = ctx.pick.get(TARGET);
  const out = new Map();
  for (const t of new Set(moves.map((m) => m.target))) {
    const mine = moves.filter((m) => m.target === t);
    out.set(t, { chosen: chosen === t && mine.length > 1,
      label: mine.length === 1 ? describeMove(mine[0], ctx) : ctx.seatName(t) + " — choose how, below",
      choose: () => (mine.length === 1 ? ctx.submit(mine[0]) : ctx.pick.set(TARGET, chosen === t ? null : t)) });
  }
  return out;
}

/** What the prompt asks, in words, above its buttons. */
function prompting(view, ctx) {
  const kind = view && view.pending && view.pending.kind;
  const words = {
    roll: "Roll the dice", shoot: "Pick the target of this shot", beer: "Who gets this beer?",
    arrow: "Which arrow do you take?", broken_arrow: "Who returns an arrow?", discard: "Kit Carlson: discard an arrow?",
    bart: "Bart Cassidy: arrows instead of life?", pedro: "Pedro Ramirez: discard arrows?",
    sid: "Sid Ketchum: who gains 1 life?", haunt: "The Ghost haunts: pick a die and a player",
  };
  return words[kind] || (kind ? ctx.name(kind) : "Your move");
}

/** A seat's name, or "a player" where a redacted move or event hides it. */
function someone(ctx, s) {
  return typeof s === "number" ? ctx.seatName(s) : "a player";
}

export function describeMove(move, ctx) {
  const who = (s) => someone(ctx, s);
  switch (move.type) {
    case "roll": return move.saloon ? "Roll with the " + ctx.name(move.saloon) + " die" : "Roll the dice";
    case "reroll": return Array.isArray(move.dice) ? "Reroll " + (move.dice.length === 1 ? "die " : "dice ") + listWords(move.dice)
      : "Reroll";
    case "stop": return "Stop: keep these dice";
    case "arrow": return move.chief ? "Take the Chief's Arrow" : "Take a regular arrow";
    case "broken_arrow": return who(move.target) + " returns an arrow";
    case "shoot": return "Shoot " + who(move.target) + (move.double ? " twice (Slab the Killer)" : "");
    case "beer": return "Give a beer to " + who(move.target);
    case "discard": return move.target === null ? "Discard no arrow" : "Discard an arrow of " + who(move.target);
    case "bart": return move.arrows ? "Take " + move.arrows + " arrow" + (move.arrows === 1 ? "" : "s") + " instead of life"
      : "Lose the life, take no arrow";
    case "pedro": {
      const parts = [];
      if (move.regular) parts.push(move.regular + " arrow" + (move.regular === 1 ? "" : "s"));
      if (move.chief) parts.push("the Chief's Arrow");
      return parts.length ? "Discard " + listWords(parts) : "Discard no arrow";
    }
    case "sid": return "Give 1 life to " + who(move.target);
    case "haunt": return "Haunt " + who(move.target) + " with die " + move.die + (move.double ? " doubled" : "");
    case "resign": return "Resign";
    default: return null;
  }
}

const AWAITED = { roll: "roll", reroll: "reroll or stop", shoot: "pick the target of a shot", beer: "give a Beer", arrow: "choose an arrow to take",
  broken_arrow: "name who returns an arrow", discard: "discard an arrow", bart: "take arrows or lose life",
  pedro: "discard arrows", sid: "give 1 life", haunt: "haunt a player" };

/** the end's reason in words (D32, D70), not its code: "sheriff wins; winners bot 4" read as data */
const ENDS = { sheriff_wins: "every Outlaw and Renegade is out", outlaws_win: "the Sheriff is dead",
  renegade_last: "the Sheriff is dead and the Renegade is the last alive", target_eliminated: "a target was eliminated by its hunter",
  last_alive: "one player is left alive", nobody_alive: "nobody is left alive, a draw" };

/** What the open prompt awaits, after "Waiting for ann to …". */
export function describePending(pd) { return AWAITED[pd.kind] || null; }

export function describeEvent(event, ctx) {
  const d = event.data || {};
  const who = (s) => someone(ctx, s);
  /* the subject, left out when it is the actor the core already names */
  const subject = (s) => (s === event.actor ? "" : who(s) + " ");
  const plural = (n, one) => n + " " + one + (n === 1 ? "" : "s");
  switch (event.type) {
    case "dice_rolled": {
      const faces = (d.rolled || []).map((n) => ctx.name(d.dice[n - 1]));
      return subject(d.seat) + (d.roll > 1 ? "rerolled: " : "rolled: ") + (faces.length ? faces.join(", ") : "nothing new") +
        (d.saloon ? " (with the " + ctx.name(d.saloon) + " die)" : "");
    }
    case "turn_started": return (d.ghost ? "the Ghost " : "") + who(d.seat) + "'s turn began";
    case "arrow_taken": return subject(d.seat) + "took " + (d.chief ? "the Chief's Arrow" : plural(d.count, "arrow"));
    case "arrows_discarded": return subject(d.seat) + "returned " + plural(d.regular || 0, "arrow") +
      (d.chief ? " and the Chief's Arrow" : "") + " to the pile";
    case "arrows_returned": return d.seat === null || d.seat === undefined ? "the Indians attacked: every arrow went back to the pile"
      : who(d.seat) + "'s arrows went back to the pile";
    case "life_lost": return (d.losses || []).map(([s, n]) => who(s) + " lost " + n + " life").join("; ");
    case "life_gained": return subject(d.seat) + "gained " + d.amount + " life";  /* not "ann: ann gained 1 life" */
    case "player_eliminated": return subject(d.seat) + "was eliminated (" + ctx.name(d.role) + ")" +
      (d.ghost ? " and plays on as the Ghost" : "");
    case "player_resigned": return subject(d.seat) + "resigned";
    case "shots_planned": return plural((d.targets || []).length, "shot") + " to fire";
    case "shot_declared": return "shot at " + who(d.target) + (d.double ? " twice" : "");
    case "token_given": return subject(d.seat) + "haunted " + who(d.target) + " with a " + ctx.name(d.face) + " token";
    case "awaiting": return d.seat === event.actor ? "then to " + (AWAITED[d.kind] || ctx.name(d.kind))
      : "then " + who(d.seat) + " to " + (AWAITED[d.kind] || ctx.name(d.kind));
    case "game_ended": return "the game ended: " + (ENDS[d.reason] || ctx.name(d.reason)) + (d.winners && d.winners.length
      ? "; " + listWords(d.winners.map(who)) + (d.winners.length === 1 ? " wins" : " win") : "");
    default: return null;
  }
}

/** state keys the Dice Game's table draws itself (the tray, the arrow pile, the seats, the prompt) */
export const drawnFacts = ["turn", "pile", "chief_arrow_in_pile", "dice", "rolls", "max_rolls", "saloon", "shots", "awaiting",
  "over", "you", "role", "players"];

const MODULES = { saloon_dice: "the Old Saloon dice (Loudmouth and Coward)", chief_arrow: "the Indian Chief's Arrow",
  ghost: "the Ghost" };

/** The rest of the state in words. */
export function describeFact(key, value, ctx) {
  if (key === "modules" && value && typeof value === "object") {
    const on = Object.keys(value).filter((k) => value[k]).map((k) => MODULES[k] || ctx.name(k));
    return on.length ? "Old Saloon modules in play: " + listWords(on) + "." : "The base game, no Old Saloon module.";
  }
  if (key === "ghost_turn") return value ? "This turn is the Ghost's: it rolls, but cannot be hit." : "";
  return null;
}

/** The new-game form's words for the Dice Game's options. */
export const options = {
  saloon_dice: { label: "Old Saloon dice", hint: "the Loudmouth and Coward dice: each turn the roller may swap one in for a normal die" },
  chief_arrow: { label: "The Indian Chief's Arrow", hint: "an arrow that counts as two when the Indians attack" },
  ghost: { label: "The Ghost", hint: "the first player out keeps playing as a ghost (4 players or more)" },
  expansion: { label: "All of the Old Saloon", hint: "the three modules above at once (the Ghost only with 4 players or more)" },
};
