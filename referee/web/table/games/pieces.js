/* The things the Dice Game, Face Off and Bluffaneer tables draw alike
   (issue 38): symbols as small SVG pictures (built node by node: no markup
   from data, nothing a font may lack), tokens counted out as things with
   their number in words beside them, and the buttons a legal move is sent
   with. One place, so the three plug-ins draw a coin, an arrow or a move
   button the same way. */

import { moveButton as coreMoveButton } from "../prompt.js";

const SVG = "http://www.w3.org/2000/svg";

/** shape list: [tag, attributes] drawn in a 24×24 box; "fill" marks a filled shape */
const SHAPES = {
  arrow: [["path", { d: "M4 20 L18 6" }], ["path", { d: "M20 4 L12.5 6 L18 11.5 Z", class: "fill" }],
    ["path", { d: "M4 20 L4 15 M4 20 L9 20 M6.5 17.5 L6.5 13.5 M6.5 17.5 L10.5 17.5" }]],
  broken_arrow: [["path", { d: "M4 20 L9.5 14.5 M12 12 L18 6" }], ["path", { d: "M20 4 L12.5 6 L18 11.5 Z", class: "fill" }],
    ["path", { d: "M4 20 L4 15 M4 20 L9 20" }], ["path", { d: "M8.5 11 L13 15.5" }]],
  dynamite: [["rect", { x: 8, y: 9, width: 8, height: 12, rx: 1.5, class: "fill" }],
    ["path", { d: "M12 9 C12 6 15 6.5 15 4" }], ["path", { d: "M15 1.5 L15 2.5 M17.5 4 L16.5 4 M13.5 2.5 L14.2 3.2 M16.5 2.5 L15.8 3.2" }]],
  target: [["circle", { cx: 12, cy: 12, r: 9.5 }], ["circle", { cx: 12, cy: 12, r: 5.5 }]],
  beer: [["rect", { x: 4.5, y: 8, width: 11, height: 13, rx: 1.5 }], ["path", { d: "M15.5 11 L19 11 L19 17 L15.5 17" }],
    ["path", { d: "M4 8 Q6.5 4 9 7 Q11.5 4 14 7 Q15.5 5 16 8", class: "fill" }], ["path", { d: "M8 11 L8 18 M12 11 L12 18" }]],
  gatling: [["circle", { cx: 7, cy: 12, r: 4.5 }], ["path", { d: "M10 9 L21 9 M11 12 L21 12 M10 15 L21 15" }],
    ["path", { d: "M6 16.5 L4 21 M8 16.5 L10 21" }]],
  bullet: [["path", { d: "M3 9 L13 9 Q20 9 21 12 Q20 15 13 15 L3 15 Z", class: "fill" }], ["path", { d: "M6 9 L6 15" }]],
  chest: [["rect", { x: 3, y: 10, width: 18, height: 10, rx: 1 }], ["path", { d: "M3 10 Q3 4 12 4 Q21 4 21 10" }],
    ["rect", { x: 10, y: 9, width: 4, height: 5, class: "fill" }], ["path", { d: "M3 14 L10 14 M14 14 L21 14" }]],
  sword: [["path", { d: "M19.5 3.5 L8.5 14.5" }], ["path", { d: "M20 3 L21 3 L21 4 L9.5 15.5 L8.5 14.5 Z", class: "fill" }],
    ["path", { d: "M5.5 12.5 L11.5 18.5" }], ["path", { d: "M8.5 15.5 L4.5 19.5" }], ["circle", { cx: 3.8, cy: 20.2, r: 1.2, class: "fill" }]],
  ship: [["path", { d: "M2.5 15 L21.5 15 L18.5 20.5 L5.5 20.5 Z", class: "fill" }], ["path", { d: "M12 15 L12 2.5" }],
    ["path", { d: "M12 3.5 L19 12.5 L12 12.5 Z" }], ["path", { d: "M11 5.5 L5 12.5 L11 12.5 Z" }]],
  skull: [["path", { d: "M5 11 Q5 3.5 12 3.5 Q19 3.5 19 11 Q19 14 16 15 L16 18 L8 18 L8 15 Q5 14 5 11 Z" }],
    ["circle", { cx: 9.3, cy: 10.5, r: 2, class: "fill" }], ["circle", { cx: 14.7, cy: 10.5, r: 2, class: "fill" }],
    ["path", { d: "M10.5 18 L10.5 15.5 M13.5 18 L13.5 15.5 M3 20 L21 22.5 M3 22.5 L21 20" }]],
  coin: [["circle", { cx: 12, cy: 12, r: 9, class: "fill" }], ["circle", { cx: 12, cy: 12, r: 5.5, class: "inner" }]],
  nugget: [["path", { d: "M4 17 L7 9 L13 6 L19 9 L21 16 L14 19 Z", class: "fill" }], ["path", { d: "M7 9 L12 12 L13 6 M12 12 L14 19" }]],
  rock: [["path", { d: "M2.5 20 L7 9 L11 13 L15 5 L21.5 20 Z", class: "fill" }]],
  pin: [["circle", { cx: 12, cy: 8, r: 5, class: "fill" }], ["path", { d: "M12 13 L12 22" }]],
  ghost: [["path", { d: "M5 21 L5 10 Q5 3 12 3 Q19 3 19 10 L19 21 L16.5 18.5 L14 21 L12 18.5 L10 21 L7.5 18.5 Z" }],
    ["circle", { cx: 9.5, cy: 10, r: 1.5, class: "fill" }], ["circle", { cx: 14.5, cy: 10, r: 1.5, class: "fill" }]],
  map: [["path", { d: "M3 6 L9 3.5 L15 6 L21 3.5 L21 18 L15 20.5 L9 18 L3 20.5 Z" }], ["path", { d: "M9 3.5 L9 18 M15 6 L15 20.5" }],
    ["path", { d: "M16.5 10 L19.5 13 M19.5 10 L16.5 13" }]],
};

/** A picture of `name` (a face, a symbol, a token), hidden from screen readers
    unless `label` is given: the words beside it say what it is. */
export function icon(name, label) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "icon icon-" + name);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  for (const [tag, attrs] of SHAPES[name] || SHAPES.target) {
    const shape = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) shape.setAttribute(k, String(v));
    svg.appendChild(shape);
  }
  return svg;
}

/** A numeral drawn over a picture (a shot's distance, a double's "×2"). */
export function marked(name, mark, label) {
  const wrap = document.createElement("span");
  wrap.className = "marked";
  wrap.appendChild(icon(name, label));
  const m = document.createElement("span");
  m.className = "mark";
  m.textContent = mark;
  m.setAttribute("aria-hidden", "true");
  wrap.appendChild(m);
  return wrap;
}

/** `count` tokens as things, at most `most` pictures, and the count in words
    beside them ("3 arrows"): the number is read, the pictures are seen. */
export function tokens(ctx, name, count, singular, plural, most = 10) {
  const n = Math.max(0, Number(count) || 0);
  const row = ctx.el("span", "tokens tokens-" + name);
  row.setAttribute("data-count", String(n));
  const pics = ctx.el("span", "token-pics");
  pics.setAttribute("aria-hidden", "true");
  for (let k = 0; k < Math.min(n, most); k++) pics.appendChild(icon(name));
  if (n > most) pics.appendChild(ctx.el("span", "token-more", "+" + (n - most)));
  row.appendChild(pics);
  row.appendChild(ctx.el("span", "token-count", n + " " + (n === 1 ? singular : plural)));
  return row;
}

/** "a, b and c" */
export function listWords(items) {
  const xs = items.map(String);
  if (xs.length <= 1) return xs.join("");
  return xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
}

/** Two moves are the same move (keys in any order). */
export function sameMove(a, b) {
  return canonical(a) === canonical(b);
}

function canonical(v) {
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  if (v && typeof v === "object") {
    return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
  }
  return JSON.stringify(v);
}

/** The moves the viewer may send now, resignation left to the core's prompt. */
export function myMoves(view, ctx) {
  if (ctx.mySeat === null || ctx.mySeat === undefined) return [];
  return ((view && view.legal_moves) || []).filter((m) => m && m.type !== "resign");
}

/** The core's move button (its words, its move in data-move, sent through
    ctx.submit), styled as the three tables' buttons. */
export function moveButton(ctx, move, text, cls) {
  const b = coreMoveButton(ctx, move, text);
  b.classList.add("move-button");
  if (cls) b.classList.add(cls);
  return b;
}

/** A labelled group of move buttons, one per move, each in the plug-in's words. */
export function moveButtons(ctx, moves, words, title) {
  const group = ctx.el("div", "move-group");
  group.setAttribute("role", "group");
  if (title) {
    group.setAttribute("aria-label", title);
    group.appendChild(ctx.el("p", "move-group-title", title));
  }
  for (const m of moves) group.appendChild(moveButton(ctx, m, words(m)));
  return group;
}

/** A control that is not a move (a pick, an undo), labelled in words; its
    data-key lets the core give it the focus back after a redraw. */
export function actionButton(ctx, text, onClick, opts = {}) {
  const b = ctx.el("button", "action-button" + (opts.cls ? " " + opts.cls : ""), text);
  b.type = "button";
  b.setAttribute("aria-label", opts.label || text);
  if (opts.pressed !== undefined) b.setAttribute("aria-pressed", opts.pressed ? "true" : "false");
  if (opts.disabled) b.disabled = true;
  b.setAttribute("data-key", opts.key || text);
  b.addEventListener("click", onClick);
  return b;
}

/** A heading-like caption for a part of the table. */
export function caption(ctx, text) {
  return ctx.el("h4", "part-caption", text);
}
