/* A card drawn as a card (issue 38): its name, suit and rank, the kind and
   colour of its border (in words too, never colour alone), and the
   catalogue's one-line text on hover, focus or tap; a face-down card as a
   back. Used by the BANG! and Face Off tables through ctx.card. */
import { el } from "./dom.js";

const SUITS = { S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"] };
const RANKS = { A: "ace", J: "jack", Q: "queen", K: "king" };

/** "ace of spades", or "" for a card without suit and rank */
export function suitRank(entry) {
  if (!entry || !entry.suit || !entry.rank) return "";
  const suit = SUITS[entry.suit];
  return (RANKS[entry.rank] || entry.rank) + " of " + (suit ? suit[1] : entry.suit);
}

/** A card in words: "BANG! (ace of spades)" */
export function cardWords(entry, id) {
  if (!entry) return String(id).replace(/_/g, " ");
  const sr = suitRank(entry);
  return entry.name + (sr ? " (" + sr + ")" : "");
}

/** One card: a <button> when it can be clicked, else a plain box; either way
    its text is its name for a screen reader (the visible words, the suit and
    rank in words, and what a click does: `label`). `entry` is the catalogue's (or undefined:
    an id the catalogue lacks is drawn by its id). */
export function drawCard(entry, id, opts = {}) {
  if (opts.faceUp === false) {
    const back = el("span", "card back");
    back.setAttribute("role", "img");
    back.setAttribute("aria-label", opts.label || "a face-down card");
    back.appendChild(el("span", "card-back-mark", "★"));
    back.firstChild.setAttribute("aria-hidden", "true");
    return back;
  }
  const words = cardWords(entry, id);
  const box = el(opts.onClick ? "button" : "span", "card");
  box.setAttribute("data-card", String(id));
  if (entry && entry.border) box.classList.add("border-" + entry.border);
  if (entry && (entry.suit === "H" || entry.suit === "D")) box.classList.add("red");
  if (opts.selected) box.classList.add("selected");
  const corner = el("span", "card-corner");
  if (entry && entry.rank && entry.suit) {
    corner.textContent = entry.rank + (SUITS[entry.suit] ? SUITS[entry.suit][0] : entry.suit);
    corner.setAttribute("aria-hidden", "true");
  }
  box.appendChild(corner);
  box.appendChild(el("span", "card-name", entry ? entry.name : String(id)));
  /* a screen reader hears the suit and rank in words, and for a control what clicking it does */
  const said = [suitRank(entry), opts.onClick ? opts.label : ""].filter(Boolean).join(": ");
  if (said) box.appendChild(el("span", "sr-only", ", " + said));
  const kind = [entry && entry.border ? entry.border + " border" : null,
    entry && Array.isArray(entry.symbols) ? entry.symbols.join(" + ") : null].filter(Boolean).join(" · ");
  if (kind) box.appendChild(el("span", "card-kind", kind));
  const text = entry && entry.text ? entry.text : "";
  if (text) {
    box.setAttribute("aria-description", words + ": " + text);  /* no title: a native tooltip cannot be hidden on click */
    box.appendChild(el("span", "card-text", text));
  }
  if (opts.onClick) {
    box.type = "button";
    if (opts.selected !== undefined) box.setAttribute("aria-pressed", opts.selected ? "true" : "false");
    box.addEventListener("click", () => quietTips(String(id)));
    box.addEventListener("click", opts.onClick);
  }
  return box;
}

/** The card last clicked: its hover text stays hidden until the pointer leaves it (the redraw a click
    brings puts a new card under the pointer, whose text would stay up over the buttons it brought). */
let quietCard = null;
function quietTips(id) {
  quietCard = id;
  document.body.classList.add("card-clicked");
}
document.addEventListener("mousemove", (e) => {
  if (quietCard === null) return;
  const over = e.target instanceof Element ? e.target.closest(".card") : null;
  if (over && over.getAttribute("data-card") === quietCard) return;
  quietCard = null;
  document.body.classList.remove("card-clicked");
});

/** Face-down cards with their count in words: "4 cards" and up to six backs. */
export function drawBacks(count, what) {
  const wrap = el("span", "backs");
  const n = Number(count) || 0;
  for (let k = 0; k < Math.min(n, 6); k++) {
    const b = drawCard(undefined, "", { faceUp: false });
    b.setAttribute("aria-hidden", "true");
    b.removeAttribute("role");
    b.removeAttribute("aria-label");
    wrap.appendChild(b);
  }
  wrap.appendChild(el("span", "backs-count", n + " " + (what || "card") + (n === 1 ? "" : "s")));
  return wrap;
}
