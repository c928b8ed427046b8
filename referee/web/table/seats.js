/* The seats around the table (issue 38): each seat's name, bot or person,
   life as pips, its role when public or one's own, its character; the seat
   whose turn it is and every awaited seat marked in words as well as by
   colour, with the deadline counting down; and what the ruleset's plug-in
   adds (cards in play, hands, dice…), else the seat's other facts as a list. */
import { label, word } from "./words.js";
import { seatClock, mmss } from "./clocks.js";
import { presenceDot } from "./presence.js";

/** facts a seat's card shows itself; the rest go to the plug-in or the list */
const SHOWN = new Set(["seat", "name", "life", "max_life", "role", "character", "char", "alive"]);

/** Life as pips: filled for each life left, hollow for each lost (shape,
    not colour), with the count in words for a screen reader. */
export function pips(ctx, life, max) {
  const box = ctx.el("span", "pips");
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", life + " of " + max + " life");
  box.setAttribute("data-life", String(life));
  const shown = Math.min(Math.max(max, life, 0), 12);
  for (let k = 0; k < shown; k++) box.appendChild(ctx.el("span", k < life ? "pip full" : "pip lost", k < life ? "●" : "○"));
  if (max > 12 || life > 12) box.appendChild(ctx.el("span", "pip-count", " " + life + "/" + max));
  return box;
}

function deadlineOf(view) {
  const d = (view.pending && view.pending.deadline) || view.deadline || view.turn_deadline;
  return d === null || d === undefined ? null : d;
}

/** A countdown the core's ticker updates every second (its text in words). */
export function countdown(ctx, deadline) {
  const cd = ctx.el("span", "countdown");
  cd.setAttribute("data-deadline", String(deadline));
  tickOne(cd);
  return cd;
}

export function tickOne(cd) {
  const left = Math.round((Number(cd.getAttribute("data-deadline")) - Date.now()) / 1000);
  /* over a minute as m:ss ("in 4:53"), the last minute in seconds ("in 12 s") */
  cd.textContent = left > 60 ? "in " + mmss(left * 1000) : left > 0 ? "in " + left + " s" : "now";
}

/** A character: its name, its one-line text a click, a tap or Enter away. */
function characterNote(ctx, id, seat) {
  const text = ctx.text(id);
  if (!text) return ctx.el("p", "character", ctx.name(id));
  const d = ctx.el("details", "character");
  const summary = ctx.el("summary", null, ctx.name(id));
  summary.setAttribute("data-key", "character-" + seat);  /* kept open and focused across redraws */
  d.appendChild(summary);
  d.appendChild(ctx.el("p", "character-text", text));
  return d;
}

/** Seat order on the table: the viewer's own seat last (at the bottom, by its
    prompt and hand), the others from the next seat on, as they sit. */
function around(facts, mine) {
  if (typeof mine !== "number") return facts;
  const at = facts.findIndex((f, k) => (typeof f.seat === "number" ? f.seat : k) === mine);
  return at < 0 ? facts : [...facts.slice(at + 1), ...facts.slice(0, at + 1)];
}

/** A seat (or a plug-in's figure) the prompt asks for — the target of a
    card, the player to rob…: `choice` {label, choose(), chosen}. The whole
    box is clickable and marked as a choice (a dashed frame and a "◎ Choose"
    button: words, not colour alone); the button is the keyboard's way (Tab,
    Enter; `key` gives it the focus back after a redraw). Clicks on the box's
    own controls (a character's text) stay theirs. */
export function offerChoice(box, key, choice, ctx) {
  box.classList.add("choice");
  if (choice.chosen) box.classList.add("chosen");
  const b = ctx.el("button", "seat-choose", (choice.chosen ? "◉ Chosen: " : "◎ Choose: ") + choice.label);
  b.type = "button";
  b.setAttribute("data-key", key);
  b.setAttribute("aria-pressed", choice.chosen ? "true" : "false");
  b.addEventListener("click", (e) => { e.stopPropagation(); choice.choose(); });
  box.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest("button, summary, a, input, select, details")) return;
    choice.choose();
  });
  box.insertBefore(b, box.firstChild.nextSibling);
}

function seatChoices(view, ctx, plugin) {
  if (!plugin || !plugin.seatChoices || ctx.mySeat === null) return null;
  try {
    return plugin.seatChoices(view, ctx) || null;
  } catch (e) {
    return null;  /* the prompt's buttons stay the way to answer */
  }
}

export function drawSeats(view, state, ctx, plugin) {
  const wrap = ctx.el("div", "seats");
  wrap.id = "seats";
  const facts = Array.isArray(state.seats) ? state.seats : ctx.players.map((p, i) => ({ seat: i }));
  const toAct = view.to_act || [];
  const awaiting = (view.pending && view.pending.awaiting) || [];
  const winners = (view.result && view.result.winners) || [];
  const deadline = deadlineOf(view);
  const seatOf = new Map(facts.map((f, k) => [f, typeof f.seat === "number" ? f.seat : k]));
  const choices = seatChoices(view, ctx, plugin);
  around(facts, ctx.mySeat).forEach((f) => {
    const i = seatOf.get(f);
    const acting = toAct.includes(i) || awaiting.includes(i);
    const out = f.alive === false;
    const box = ctx.el("section", "seat" + (acting ? " acting" : "") + (winners.includes(i) ? " won" : "") +
      (out ? " out" : "") + (ctx.mySeat === i ? " mine" : " other"));
    box.setAttribute("data-seat", String(i));
    box.setAttribute("aria-label", ctx.seatName(i));
    const p = ctx.players[i] || {};
    const head = ctx.el("h3", "seat-head");
    head.appendChild(ctx.el("span", "seat-name", ctx.seatName(i)));
    head.appendChild(ctx.el("span", "badge who", p.bot ? "bot: " + p.bot : "person"));
    const presence = presenceDot(ctx, p);
    if (presence) head.appendChild(presence);
    if (ctx.mySeat === i) head.appendChild(ctx.el("span", "badge you", "you"));
    box.appendChild(head);
    const marks = ctx.el("p", "seat-marks");
    const clock = seatClock(view, i, ctx);  /* a clocked game's: clocks.js */
    if (acting) {
      marks.appendChild(ctx.el("span", "mark acting-mark", "▶ to act"));
      if (deadline !== null && !clock) {  /* a clocked game's seat counts down on its clock instead */
        marks.appendChild(document.createTextNode(" · "));
        marks.appendChild(countdown(ctx, deadline));
      }
    }
    const mark = (text) => {
      if (marks.childNodes.length) marks.appendChild(document.createTextNode(" · "));
      marks.appendChild(ctx.el("span", "mark", text));
    };
    if (clock) {
      if (marks.childNodes.length) marks.appendChild(document.createTextNode(" · "));
      marks.appendChild(clock);
    }
    if (winners.includes(i)) mark("★ winner");
    if (out) mark("✝ out of the game");
    if (marks.childNodes.length) box.appendChild(marks);
    const line = ctx.el("p", "seat-line");
    if (typeof f.life === "number" && typeof f.max_life === "number") line.appendChild(pips(ctx, f.life, f.max_life));
    const role = f.role || (ctx.mySeat === i ? state.role : null);
    if (role) {
      const badge = ctx.el("span", "badge role role-" + role, ctx.name(role));
      badge.setAttribute("data-role", role);
      const goal = ctx.entry(role);
      if (goal && goal.goal) badge.title = goal.goal;
      line.appendChild(badge);
    } else if ("role" in f) {
      line.appendChild(ctx.el("span", "badge role hidden-role", "role hidden"));
    }
    if (line.childNodes.length) box.appendChild(line);
    const character = f.character || f.char;
    if (character) box.appendChild(characterNote(ctx, character, i));
    const extra = plugin && plugin.seatParts ? plugin.seatParts(f, i, view, ctx) : null;
    if (extra) box.appendChild(extra);
    else {
      const dl = ctx.el("dl", "seat-facts");
      Object.keys(f).forEach((k) => {
        if (SHOWN.has(k)) return;
        dl.appendChild(ctx.el("dt", null, label(k)));
        dl.appendChild(ctx.el("dd", null, word(f[k], ctx, k)));
      });
      if (dl.childNodes.length) box.appendChild(dl);
    }
    if (choices && choices.has(i)) offerChoice(box, "seat-choice-" + i, choices.get(i), ctx);
    wrap.appendChild(box);
  });
  return wrap;
}
