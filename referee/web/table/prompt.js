/* The prompt (issue 38): what the table waits for and from whom, its
   deadline counting down, and the viewing seat's legal moves as controls —
   the ruleset's plug-in's, else every legal move as a button in words —
   with resigning always behind a confirmation. */
import { label, word } from "./words.js";
import { countdown } from "./seats.js";

const QUIET = new Set(["kind", "awaiting", "deadline", "default", "default_drawn"]);

/** A button that submits one legal move (its words as its label). */
export function moveButton(ctx, move, text) {
  const b = ctx.el("button", "move", text || ctx.describe(move));
  b.type = "button";
  b.setAttribute("data-move", JSON.stringify(move));
  b.addEventListener("click", () => ctx.submit(move));
  return b;
}

/** Every legal move but resigning as a button in words. */
export function genericControls(view, ctx) {
  const ul = ctx.el("ul", "move-list");
  (view.legal_moves || []).filter((m) => m.type !== "resign").forEach((m) => {
    const li = ctx.el("li");
    li.appendChild(moveButton(ctx, m));
    ul.appendChild(li);
  });
  return ul.childNodes.length ? ul : null;
}

/** "Resign…" and then "Really resign?" with Yes and No (kept across redraws in ctx.pick). */
function resignControl(view, ctx) {
  const move = (view.legal_moves || []).find((m) => m.type === "resign");
  if (!move) return null;
  const box = ctx.el("div", "resign");
  if (ctx.pick.get("resign")) {
    box.appendChild(ctx.el("span", "confirm-q", "Really resign? You leave the game for good. "));
    const yes = moveButton(ctx, move, "Yes, resign");
    yes.classList.add("danger");
    box.appendChild(yes);
    const no = ctx.el("button", "move", "No, keep playing");
    no.type = "button";
    no.setAttribute("data-key", "resign");  /* the focus moves between "Resign…" and this safe answer */
    no.addEventListener("click", () => ctx.pick.set("resign", false));
    box.appendChild(no);
  } else {
    const b = ctx.el("button", "move quiet", "Resign…");
    b.type = "button";
    b.setAttribute("aria-label", "Resign (asks to confirm)");
    b.setAttribute("data-key", "resign");
    b.addEventListener("click", () => ctx.pick.set("resign", true));
    box.appendChild(b);
  }
  return box;
}

/** nothing to say: a zero, an empty list, false or null */
function empty(v) { return v === null || v === undefined || v === false || v === 0 || (Array.isArray(v) && !v.length); }

/** a prompt's keys the generic words leave out: the rule's number and a figure's index say nothing to a player */
const UNSAID = new Set([...QUIET, "rule", "char", "seat"]);

/** "you", "ann" or "ann and bob": the awaited seats by name, the viewer as "you" */
function awaitedWords(seats, ctx) {
  const names = seats.map((s) => (s === ctx.mySeat ? "you" : ctx.seatName(s)));
  return names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names[names.length - 1] : names[0] || "nobody";
}

/** The prompt's words, a sentence: "Waiting for ann to answer bot 4's Duel." — the plug-in's
    describePending says what is awaited; without it, the kind and its facts in words. */
export function pendingWords(pd, ctx, plugin) {
  const who = awaitedWords(pd.awaiting || [], ctx);
  let what = null;
  try {
    what = plugin && plugin.describePending ? plugin.describePending(pd, ctx) : null;
  } catch (e) {
    what = null;  /* a prompt shaped unlike the plug-in expects: the generic words below */
  }
  if (what) return "Waiting for " + who + " to " + what + ".";
  const extra = Object.keys(pd).filter((k) => !UNSAID.has(k) && !empty(pd[k]));
  return "Waiting for " + who + " to decide: " + label(pd.kind) +
    (extra.length ? " (" + extra.map((k) => label(k) + ": " + word(pd[k], ctx, k)).join(", ") + ")" : "") + ".";
}

export function drawPrompt(view, ctx, plugin) {
  const box = ctx.el("section", "prompt");
  box.id = "prompt";
  box.setAttribute("aria-label", "the prompt");
  const pd = view.pending;
  if (pd) {
    const p = ctx.el("p", "pending");
    p.id = "pending";
    p.setAttribute("data-kind", String(pd.kind));
    p.setAttribute("data-awaiting", JSON.stringify(pd.awaiting || []));
    p.appendChild(ctx.el("span", null, pendingWords(pd, ctx, plugin)));
    if (pd.deadline !== null && pd.deadline !== undefined) {
      p.appendChild(document.createTextNode(" · deadline "));
      const cd = countdown(ctx, pd.deadline);
      cd.id = "countdown";
      p.appendChild(cd);
    }
    (pd["default"] || []).forEach((d) => {
      p.appendChild(ctx.el("span", "muted default", " · " + ctx.seatName(d.seat) + " defaults to " + ctx.describe(d.move)));
    });
    box.appendChild(p);
  }
  const legal = view.legal_moves || [];
  const moves = ctx.el("div", "moves");
  moves.id = "moves";
  if (legal.length) {
    moves.appendChild(ctx.el("h3", "moves-head", "Your move"));
    const own = plugin && plugin.controls ? plugin.controls(view, ctx) : null;
    const controls = own || genericControls(view, ctx);
    if (controls) moves.appendChild(controls);
    const resign = resignControl(view, ctx);
    if (resign) moves.appendChild(resign);
  }
  const refusal = ctx.el("p", "refusal");
  refusal.id = "refusal";
  refusal.setAttribute("role", "status");
  refusal.textContent = ctx.notice || "";
  refusal.hidden = !ctx.notice;
  moves.appendChild(refusal);
  box.appendChild(moves);
  return box;
}
