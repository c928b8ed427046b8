/* Face Off at the table (issue 38): the board as a grid with its
   coordinates (columns A, B, C…, rows 1, 2, 3…), rocks, nuggets and the three
   figures; each figure's character, life, cards in play and who controls it
   (the Renegade's controller named); a path chosen by clicking its squares one
   after another, with undo and a confirm; a card played by clicking it, then
   its target; every other answer a button in words. Cards are drawn through
   ctx.card (the catalogue's name, suit, rank, border and text). */

import { actionButton, caption, icon, listWords, moveButton, moveButtons, myMoves, sameMove, tokens }
  from "./pieces.js";
import { movedWords } from "./faceoff-facts.js";
import { offerChoice } from "../seats.js";

export { track, drawnFacts, describeFact, options } from "./faceoff-facts.js";

const PATH = "faceoff-path";
const SQUARE = "faceoff-square";
const CARD = "faceoff-card";
const TARGET = "faceoff-target";

/** [x, y] -> "H4": columns lettered from A, rows numbered from 1 */
export function coord(square) {
  const [x, y] = square;
  return (x < 26 ? String.fromCharCode(65 + x) : "Z" + (x - 25)) + (y + 1);
}

export function figureName(char, ctx) {
  if (typeof char !== "number") return "a character";
  const st = ctx.state || {};
  const c = (st.characters || [])[char];
  const role = c ? ctx.name(c.role) : ["Sheriff", "Outlaw", "Renegade"][char] || "figure " + char;
  return c ? role + " (" + ctx.name(c.character) + ")" : role;
}

/** A card's name, or "a card" where a redacted move or event hides it (FO57). */
function cardName(id, ctx) {
  return typeof id === "string" && id ? ctx.name(id) : "a card";
}

function movesWithCard(moves, id) {
  return moves.filter((m) => typeof m.card === "string" && m.card === id);
}

/** Selecting a card: one move alone is sent at once, several wait for their target. */
function cardClick(ctx, moves, id) {
  const options = movesWithCard(moves, id);
  if (options.length === 1 && options[0].target === undefined && options[0].pick === undefined) {
    return () => ctx.submit(options[0]);
  }
  return () => { ctx.pick.set(TARGET, null); ctx.pick.set(CARD, ctx.pick.get(CARD) === id ? null : id); };
}

/** A row of cards: face up and clickable where a legal move names them. */
function cardRow(ctx, ids, moves, title, zone) {
  const row = ctx.el("div", "card-row");
  row.setAttribute("data-zone", zone);
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", title);
  row.appendChild(ctx.el("span", "row-title", title));
  const chosen = ctx.pick.get(CARD);
  for (const id of ids) {
    const playable = movesWithCard(moves, id).length > 0;
    row.appendChild(ctx.card(id, playable
      ? { faceUp: true, onClick: cardClick(ctx, moves, id), selected: chosen === id }
      : { faceUp: true }));
  }
  if (!ids.length) row.appendChild(ctx.el("span", "muted", "none"));
  return row;
}

function verb(move) {
  return { play: "play it", discard: "discard it", respond: "answer with it", bid: "bid it", choose: "take it" }[move.type]
    || "use it";
}

export function seatParts(seat, index, view, ctx) {
  const st = ctx.state || {};
  const s = seat;
  if (!s) return null;
  const moves = myMoves(view, ctx);
  const box = ctx.el("div", "faceoff-seat");
  const plays = ctx.el("p", "plays");
  const figures = (s.controls || [s.char]).map((c) => figureName(c, ctx));
  plays.textContent = "Plays " + listWords(figures);
  box.appendChild(plays);
  if ((s.controls || []).includes(2)) box.appendChild(ctx.el("span", "badge renegade-badge", "controls the Renegade now"));
  if (index === st.you && Array.isArray(st.hand)) {
    const hand = cardRow(ctx, st.hand, moves, "Your hand", "hand");
    hand.id = "hand";
    box.appendChild(hand);
    if (Array.isArray(st.renegade_hand)) box.appendChild(cardRow(ctx, st.renegade_hand, moves, "The Renegade's hand", "renegade_hand"));
    if (Array.isArray(st.kit_cards)) box.appendChild(cardRow(ctx, st.kit_cards, moves, "Kit Carlson's look", "kit_cards"));
    if (st.my_bid) {
      const bid = ctx.el("div", "card-row");
      bid.appendChild(ctx.el("span", "row-title", "Your bid"));
      bid.appendChild(ctx.card(st.my_bid, { faceUp: true }));
      box.appendChild(bid);
    }
  } else {
    const backs = ctx.el("div", "card-row");
    backs.appendChild(ctx.el("span", "row-title", "Hand"));
    if (s.hand_size) backs.appendChild(ctx.card("", { faceUp: false, label: s.hand_size + " cards, face down" }));
    backs.appendChild(ctx.el("span", "backs-count", s.hand_size + " card" + (s.hand_size === 1 ? "" : "s")));
    box.appendChild(backs);
  }
  if (s.bid_in) box.appendChild(ctx.el("span", "badge", "bid made"));
  const kills = ctx.el("p", "kills", "Kills: " + s.kills + (s.trophies && s.trophies.length
    ? " (" + listWords(s.trophies.map((t) => ctx.name(t.character) + (t.with_renegade ? " with the Renegade" : ""))) + ")" : ""));
  box.appendChild(kills);
  return box;
}

/** The path picked so far, kept while it still begins a legal path. */
function pickedPath(ctx, paths) {
  const path = ctx.pick.get(PATH) || [];
  return paths.some((p) => startsWith(p.path, path)) ? path : [];
}

function startsWith(path, prefix) {
  return prefix.length <= path.length && prefix.every((q, k) => q[0] === path[k][0] && q[1] === path[k][1]);
}

function key(square) { return square[0] + "," + square[1]; }

/** What the board lets the viewer click now: the next squares of a path, or the nugget's squares. */
function clickable(view, ctx) {
  const moves = myMoves(view, ctx);
  const out = new Map();
  const paths = moves.filter((m) => m.type === "move" || m.type === "walk");
  if (paths.length) {
    const prefix = pickedPath(ctx, paths);
    for (const m of paths) {
      if (m.path.length > prefix.length && startsWith(m.path, prefix)) {
        const next = m.path[prefix.length];
        out.set(key(next), { square: next, words: "step " + (prefix.length + 1) + " to " + coord(next),
          click: () => ctx.pick.set(PATH, [...prefix, next]) });
      }
    }
  }
  const chosen = ctx.pick.get(SQUARE);
  for (const m of moves.filter((x) => x.type === "place")) {
    const picked = chosen && chosen[0] === m.square[0] && chosen[1] === m.square[1];
    out.set(key(m.square), { square: m.square, words: picked ? "picked for the nugget" : "put the nugget here", pressed: picked,
      click: () => ctx.pick.set(SQUARE, m.square) });
  }
  return out;
}

function drawBoard(view, ctx) {
  const st = ctx.state || {};
  const map = st.map || { rows: [], width: 0, height: 0 };
  const nuggets = new Set((st.nuggets || []).map(key));
  const figures = new Map((st.figures || []).map((f) => [key([f.x, f.y]), f]));
  const moves = myMoves(view, ctx);
  const paths = moves.filter((m) => m.type === "move" || m.type === "walk");
  const prefix = paths.length ? pickedPath(ctx, paths) : [];
  const steps = new Map(prefix.map((q, k) => [key(q), k + 1]));
  const chosen = ctx.pick.get(SQUARE);
  const lastPath = st.last && (st.last.kind === "moved") ? new Set((st.last.path || []).map(key)) : new Set();
  const live = clickable(view, ctx);
  /* focusable, so a keyboard scrolls the board sideways on a narrow screen */
  const wrap = ctx.el("div", "board-scroll");
  wrap.tabIndex = 0;
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", "The board");
  const table = ctx.el("table", "fo-board");
  table.appendChild(ctx.el("caption", "", "Board: " + (map.name || "the map") + " (columns A to " +
    coord([map.width - 1, 0]).replace(/\d+$/, "") + ", rows 1 to " + map.height + ")"));
  const head = ctx.el("tr");
  head.appendChild(ctx.el("td", "corner"));
  for (let x = 0; x < map.width; x++) {
    const th = ctx.el("th", "col", coord([x, 0]).replace(/\d+$/, ""));
    th.scope = "col";
    head.appendChild(th);
  }
  const thead = ctx.el("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const body = ctx.el("tbody");
  for (let y = 0; y < map.height; y++) {
    const tr = ctx.el("tr");
    const th = ctx.el("th", "row", String(y + 1));
    th.scope = "row";
    tr.appendChild(th);
    for (let x = 0; x < map.width; x++) {
      const k = key([x, y]);
      const td = ctx.el("td", "cell");
      const words = [];
      const rock = (map.rows[y] || "")[x] === "#";
      if (rock) { td.classList.add("rock"); td.appendChild(icon("rock")); words.push("rock"); }
      const fig = figures.get(k);
      if (fig) {
        const f = ctx.el("span", "figure fig-" + fig.role, fig.mark);
        f.setAttribute("aria-hidden", "true");
        td.appendChild(f);
        td.classList.add("has-figure");
        words.push(figureName(fig.char, ctx));
      }
      if (nuggets.has(k)) { td.appendChild(icon("nugget")); td.classList.add("nugget"); words.push("nugget"); }
      if (steps.has(k)) {
        td.appendChild(ctx.el("span", "step", String(steps.get(k))));
        td.classList.add("on-path");
        words.push("step " + steps.get(k) + " of your path");
      }
      if (chosen && key(chosen) === k) td.classList.add("on-path");
      if (lastPath.has(k)) { td.classList.add("last-path"); words.push("on the last path walked"); }
      const label = coord([x, y]) + (words.length ? ": " + words.join(", ") : ": open ground");
      td.setAttribute("data-square", k);
      const action = live.get(k);
      if (action) {
        const b = ctx.el("button", "cell-button");
        b.type = "button";
        b.setAttribute("data-key", "square-" + k);
        b.setAttribute("aria-label", coord([x, y]) + ": " + action.words + (words.length ? " (" + words.join(", ") + ")" : ""));
        if (action.pressed !== undefined) b.setAttribute("aria-pressed", action.pressed ? "true" : "false");
        b.addEventListener("click", action.click);
        while (td.firstChild) b.appendChild(td.firstChild);
        b.appendChild(ctx.el("span", "reach-mark", "+"));
        b.lastChild.setAttribute("aria-hidden", "true");
        td.appendChild(b);
        td.classList.add("reachable");
      } else {
        td.title = label;
        const sr = ctx.el("span", "sr-only", label);
        td.appendChild(sr);
      }
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  table.appendChild(body);
  wrap.appendChild(table);
  return wrap;
}

/** One figure's panel: who it is, who plays it, its life, reach and cards in play. */
function drawFigure(c, view, ctx) {
  const st = ctx.state || {};
  const box = ctx.el("section", "fo-figure fig-" + c.role + " figure-" + c.char + (st.active === c.char && st.phase !== "over" ? " active" : ""));
  box.setAttribute("aria-label", figureName(c.char, ctx));
  const fig = (st.figures || [])[c.char];
  const head = ctx.el("h4", "fo-figure-name");
  const mark = ctx.el("span", "figure fig-" + c.role, fig ? fig.mark : "");
  mark.setAttribute("aria-hidden", "true");
  head.appendChild(mark);
  head.appendChild(ctx.el("span", "", " " + figureName(c.char, ctx)));
  box.appendChild(head);
  const who = c.controller === null || c.controller === undefined ? "nobody now" : ctx.seatName(c.controller);
  box.appendChild(ctx.el("p", "controller", (c.char === 2 ? "Controlled by " : "Played by ") + who +
    (st.active === c.char && st.phase !== "over" ? " — its turn" : "")));
  const life = ctx.el("p", "life");
  life.setAttribute("data-life", String(c.life));
  life.appendChild(ctx.el("span", "", "Life "));
  const pips = ctx.el("span", "pips");
  pips.setAttribute("aria-hidden", "true");
  for (let k = 0; k < c.max_life; k++) pips.appendChild(ctx.el("span", k < c.life ? "pip full" : "pip empty", k < c.life ? "●" : "○"));
  life.appendChild(pips);
  life.appendChild(ctx.el("span", "life-words", " " + c.life + " of " + c.max_life));
  box.appendChild(life);
  box.appendChild(ctx.el("p", "muted", "On " + coord(c.square) + "; reach " + c.reach + "; " + c.hand_size +
    " card" + (c.hand_size === 1 ? "" : "s") + " in hand"));
  if ((c.in_play || []).length) {
    const row = ctx.el("div", "card-row");
    row.appendChild(ctx.el("span", "row-title", "In play"));
    for (const id of c.in_play) row.appendChild(ctx.card(id, { faceUp: true }));
    box.appendChild(row);
  }
  const choice = figureChoice(c.char, view, ctx);
  if (choice) offerChoice(box, "figure-choice-" + c.char, choice, ctx);
  return box;
}

/** A figure the card picked may target, clicked on its panel: its one use sent, or, with several
    (a card of its hand or one in play), the prompt's buttons narrowed to it. */
function figureChoice(char, view, ctx) {
  const picked = ctx.pick.get(CARD);
  const uses = picked ? movesWithCard(myMoves(view, ctx), picked).filter((m) => m.target === char) : [];
  if (!uses.length) return null;
  const chosen = ctx.pick.get(TARGET) === char;
  return { chosen: chosen && uses.length > 1,
    label: uses.length === 1 ? describeMove(uses[0], ctx) : cardName(picked, ctx) + " at " + figureName(char, ctx) + " — choose how, below",
    choose: () => (uses.length === 1 ? ctx.submit(uses[0]) : ctx.pick.set(TARGET, chosen ? null : char)) };
}

export function centre(view, ctx) {
  const st = ctx.state || {};
  const moves = myMoves(view, ctx);
  const wrap = ctx.el("div", "faceoff-table");
  const status = ctx.el("p", "fo-status", "Round " + st.round + " — " + (st.phase === "over" ? "the game is over"
    : figureName(st.active, ctx) + ", " + phaseWords(st.phase)));
  wrap.appendChild(status);
  const main = ctx.el("div", "fo-main");
  main.appendChild(drawBoard(view, ctx));
  const figs = ctx.el("div", "fo-figures");
  for (const c of st.characters || []) figs.appendChild(drawFigure(c, view, ctx));
  main.appendChild(figs);
  wrap.appendChild(main);
  const decks = ctx.el("div", "fo-decks");
  decks.appendChild(tokens(ctx, "nugget", st.reserve, "nugget in reserve", "nuggets in reserve", 8));
  for (const deck of ["brown", "blue"]) {
    const pile = ctx.el("div", "card-row");
    pile.appendChild(ctx.el("span", "row-title", (deck === "brown" ? "Brown" : "Blue") + " deck: " +
      ((st.decks || {})[deck] || 0) + " cards; discard"));
    const discards = (st.discards || {})[deck] || [];
    if (discards.length) pile.appendChild(ctx.card(discards[discards.length - 1], { faceUp: true }));
    else pile.appendChild(ctx.el("span", "muted", "empty"));
    decks.appendChild(pile);
  }
  wrap.appendChild(decks);
  if ((st.general_store || []).length) wrap.appendChild(cardRow(ctx, st.general_store, moves, "General Store", "general_store"));
  if ((st.lucky_cards || []).length) wrap.appendChild(cardRow(ctx, st.lucky_cards, moves, "Lucky Duke's draw", "lucky_cards"));
  if (st.last_bids) {
    wrap.appendChild(ctx.el("p", "muted", "Last bids for the Renegade: " + st.last_bids.map((b, s) =>
      ctx.seatName(s) + " " + (b ? cardName(b, ctx) : "none")).join(", ")));
  }
  return wrap;
}

function phaseWords(phase) {
  return { move: "phase 1: move", phase2: "phase 2: draw or walk", play: "phase 3: play cards", discard: "phase 4: discard",
    bid: "bidding for the Renegade", place: "placing a spare nugget", start: "starting", start_jail: "in jail" }[phase] || phase;
}

export function controls(view, ctx) {
  const moves = myMoves(view, ctx);
  if (!moves.length) return null;
  const box = ctx.el("div", "faceoff-controls");
  const paths = moves.filter((m) => m.type === "move" || m.type === "walk");
  if (paths.length) box.appendChild(pathControls(paths, ctx));
  const places = moves.filter((m) => m.type === "place");
  if (places.length) {
    const chosen = ctx.pick.get(SQUARE);
    const move = chosen ? places.find((m) => sameMove(m.square, chosen)) : null;
    /* picked, then sent by its button, as a path's squares are (a misclick can still be changed) */
    box.appendChild(ctx.el("p", "hint", move
      ? "The nugget goes on " + coord(move.square) + ": press \u201c" + describeMove(move, ctx) +
        "\u201d to place it there, or click another marked square."
      : "Click a marked square of the board (or pick it from the list below), then press " +
        "\u201cPlace the spare nugget on \u2026\u201d to put the spare nugget there."));
    if (move) box.appendChild(moveButton(ctx, move, describeMove(move, ctx), "primary"));
  }
  const squares = clickable(view, ctx);
  if (squares.size) box.appendChild(squareList(squares, ctx, places.length > 0));
  const withCard = moves.filter((m) => typeof m.card === "string");
  if (withCard.length) {
    const chosen = ctx.pick.get(CARD);
    const target = ctx.pick.get(TARGET);
    const all = chosen ? movesWithCard(moves, chosen) : [];
    const options = all.some((m) => m.target === target) ? all.filter((m) => m.target === target) : all;
    if (options.length) {
      box.appendChild(moveButtons(ctx, options, (m) => describeMove(m, ctx), cardName(chosen, ctx) + ": pick its target"));
      box.appendChild(actionButton(ctx, "Cancel the card", () => { ctx.pick.set(TARGET, null); ctx.pick.set(CARD, null); }));
    } else {
      box.appendChild(ctx.el("p", "hint", "Click a card marked playable to " + listWords(
        [...new Set(withCard.map(verb))]) + ", in your hand or here:"));
      box.appendChild(cardList(ctx, moves, withCard));
    }
  }
  const rest = moves.filter((m) => !paths.includes(m) && !places.includes(m) && !withCard.includes(m));
  if (rest.length) box.appendChild(moveButtons(ctx, rest, (m) => describeMove(m, ctx), paths.length || withCard.length ? "Or" : promptWords(view, ctx)));
  return box;
}

/** What the open prompt awaits, after "Waiting for ann to …": the figure it is for by its role and character. */
export function describePending(pd, ctx) {
  const fig = figureName(pd.char, ctx);
  const from = (k) => (typeof pd[k] === "number" ? " from " + figureName(pd[k], ctx) : "");
  const said = {
    shot: "answer a shot at the " + fig + from("src"), indians: "answer Indians! against the " + fig + from("src"),
    duel: "answer a Duel: the " + fig + (typeof pd.other === "number" ? " against the " + figureName(pd.other, ctx) : ""),
    dying: "save the " + fig + " with a Beer", store: "take a card from the General Store for the " + fig,
    kit: "choose the cards the " + fig + " keeps", lucky: "choose the \"draw!\" card of the " + fig,
    after_hit: "answer the hit on the " + fig, multi: "see the card's targets answer",
    move: "move the " + fig + " (phase 1)", phase2: "draw cards or walk with the " + fig + " (phase 2)",
    play: "play the " + fig + "'s cards or end its turn", discard: "discard the " + fig + "'s cards down to its life",
    bid: "bid for the Renegade", place: "place a spare nugget on the board",
  };
  return said[pd.kind] || null;
}

function promptWords(view, ctx) {
  const p = (view && view.pending) || {};
  const about = p.char !== undefined ? figureName(p.char, ctx) : "";
  const kinds = { shot: "is shot at", indians: "faces Indians!", duel: "is in a duel", dying: "is dying", store: "takes a card from the General Store",
    play: "plays cards", phase2: "draws or walks", discard: "discards down to its life" };
  return about && kinds[p.kind] ? about + " " + kinds[p.kind] : "Your move";
}

function pathControls(paths, ctx) {
  const box = ctx.el("div", "path-controls");
  const prefix = pickedPath(ctx, paths);
  const exact = paths.find((m) => m.path.length === prefix.length && startsWith(m.path, prefix)) || null;
  const longer = paths.some((m) => m.path.length > prefix.length && startsWith(m.path, prefix));
  /* "confirm" only offered while its button is shown: a path may have to go on before it can end */
  const next = longer && exact ? " Click the next square, or confirm the path."
    : longer ? " Click the next square; the path cannot end here."
    : exact ? " Confirm the path, or undo the last step." : "";
  box.appendChild(ctx.el("p", "hint", prefix.length
    ? "Path so far: " + prefix.map(coord).join(" → ") + "." + next
    : "Click the marked squares of your path one after another, on the board or below" +
      (exact ? ", then confirm." : "; a Confirm button shows once the path can end there.")));
  const group = ctx.el("div", "move-group");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", "Your path");
  if (exact) {
    const b = moveButton(ctx, exact, "Confirm: " + describeMove(exact, ctx), "primary");
    b.addEventListener("click", () => ctx.pick.set(PATH, []));
    group.appendChild(b);
  }
  if (prefix.length) {
    group.appendChild(actionButton(ctx, "Undo the last step", () => ctx.pick.set(PATH, prefix.slice(0, -1))));
    group.appendChild(actionButton(ctx, "Start the path again", () => ctx.pick.set(PATH, [])));
  }
  box.appendChild(group);
  return box;
}

/** Each card a legal move names, as a button in the prompt too: its one use
    sent at once, or picked to show its targets (as clicking the card does). */
function cardList(ctx, moves, withCard) {
  const group = ctx.el("div", "move-group card-list");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", "Your playable cards");
  for (const id of [...new Set(withCard.map((m) => m.card))]) {
    const uses = movesWithCard(moves, id);
    if (uses.length === 1 && uses[0].target === undefined && uses[0].pick === undefined) {
      group.appendChild(moveButton(ctx, uses[0], describeMove(uses[0], ctx)));
    } else {
      group.appendChild(actionButton(ctx, cardName(id, ctx) + "…", () => ctx.pick.set(CARD, id),
        { key: "use-" + id, label: cardName(id, ctx) + ": pick its target" }));
    }
  }
  return group;
}

/** The squares the board lets one click now, as buttons in the prompt too:
    the next steps of a path (a few), or the spare nugget's squares (many:
    folded away). Keyboard play need not tab through the board. */
function squareList(squares, ctx, folded) {
  const group = ctx.el("div", "move-group square-list");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", folded ? "The nugget's squares" : "The next square of your path");
  if (!folded) group.appendChild(ctx.el("span", "row-title", "Next square:"));
  for (const [k, action] of squares) {
    group.appendChild(actionButton(ctx, coord(action.square), action.click, { key: "list-" + k,
      label: coord(action.square) + ": " + action.words, pressed: action.pressed }));
  }
  if (!folded) return group;
  const details = ctx.el("details", "square-details");
  details.appendChild(ctx.el("summary", "", "Or pick the square from a list"));
  details.appendChild(group);
  return details;
}

function pickWords(pick, ctx) {
  return pick === "hand" ? "a card from the hand" : cardName(pick, ctx);
}

export function describeMove(move, ctx) {
  const fig = (c) => figureName(c, ctx);
  switch (move.type) {
    case "move": if (!Array.isArray(move.path)) return "Move";
      return move.path.length ? "Move " + move.path.map(coord).join(" → ") : "Stay put (no move)";
    case "walk": if (!Array.isArray(move.path)) return "Walk";
      return move.path.length ? "Walk " + move.path.map(coord).join(" → ") : "Spend the slot standing still";
    case "draw":
      if (move.source === "discard") return "Draw the top of the brown discard";
      if (move.source === "hand") return "Draw from the hand of " + fig(move.target);
      return "Draw a card";
    case "play": return "Play " + cardName(move.card, ctx) + (move.target !== undefined ? " at " + fig(move.target) : "") +
      (move.pick !== undefined ? ", taking " + pickWords(move.pick, ctx) : "");
    case "sid": return "Sid Ketchum: discard " + listWords((move.cards || []).map((c) => cardName(c, ctx))) + " for 1 life";
    case "end_turn": return "End the turn";
    case "discard": return "Discard " + cardName(move.card, ctx);
    case "respond": return "Answer with " + cardName(move.card, ctx);
    case "barrel": return move.source === "jourdonnais" ? "Draw! for Jourdonnais" : "Draw! for the Barrel";
    case "choose": return "Take " + cardName(move.card, ctx);
    case "pass": return "Pass (take it)";
    case "bid": return "Bid " + cardName(move.card, ctx) + " for the Renegade";
    case "place": return "Place the spare nugget" + (Array.isArray(move.square) ? " on " + coord(move.square) : "");
    case "resign": return "Resign";
    default: return null;
  }
}

export function describeEvent(event, ctx) {
  const d = event.data || {};
  const fig = (c) => figureName(c, ctx);
  const cards = (xs) => xs ? listWords(xs.map((c) => cardName(c, ctx))) : "cards";
  const subject = (s) => (s === event.actor ? "" : ctx.seatName(s) + " ");
  switch (event.type) {
    case "moved": return movedWords(d, ctx);
    case "nugget_taken": return fig(d.char) + " took the nugget on " + coord(d.square);
    case "nugget_placed": return subject(d.seat) + "placed a nugget on " + coord(d.square);
    case "cards_drawn": return fig(d.char) + " drew " + (d.cards ? cards(d.cards) : d.count + " card" + (d.count === 1 ? "" : "s")) +
      " from the " + d.from + " deck";
    case "card_played": return fig(d.char) + " played " + (d.card ? cardName(d.card, ctx) : "a card") +
      (d.target !== null && d.target !== undefined ? " at " + fig(d.target) : "");
    case "life_changed": return fig(d.char) + (d.kind === "loss" ? " lost " : " gained ") + d.amount + " life";
    case "card_discarded": return fig(d.char) + " discarded " + cards(d.cards);
    case "bid_made": return subject(d.seat) + "made a bid";
    case "bids_revealed": return "the bids: " + (d.bids || []).map((b, s) => ctx.seatName(s) + " " + (b ? cardName(b, ctx) : "none")).join(", ") +
      (typeof d.winner === "number" ? "; " + ctx.seatName(d.winner) + " controls the Renegade"
        : "; no higher bid: nobody controls the Renegade, a new round begins");  /* FO36, a tie or no bid (it said "seat null controls") */
    case "draw_checked": return fig(d.char) + " drew " + (d.card ? cardName(d.card, ctx) : "a card") + " for " + ctx.name(d.reason);
    case "character_eliminated": return fig(d.char) + " was eliminated";
    case "character_replaced": return "a new character, " + ctx.name(d.character) + ", takes the " + ["Sheriff", "Outlaw", "Renegade"][d.char] +
      "'s place with " + d.life + " life";
    case "card_taken": return fig(d.char) + " took " + (d.card ? cardName(d.card, ctx) : "a card") + " from " + fig(d.from);
    case "card_shown": return fig(d.char) + " showed " + cardName(d.card, ctx);
    case "cards_revealed": return fig(d.char) + " turned up " + cards(d.cards);
    case "card_picked": return fig(d.char) + " took " + cardName(d.card, ctx);
    case "card_passed": return fig(d.char) + " passed " + cardName(d.card, ctx) + " to " + fig(d.to);
    case "cards_inherited": return fig(d.char) + " inherited the cards of " + fig(d.from);
    case "deck_reshuffled": return "the " + d.deck + " deck was reshuffled";
    case "game_over": return "the game is over";
    case "flow": {
      const f = d.flow || {};
      if (f.phase === "over" || typeof f.active !== "number") return "the game moved on";
      return "then " + fig(f.active) + ": " + phaseWords(f.phase) + " (round " + f.round + ")";
    }
    default: return null;
  }
}
