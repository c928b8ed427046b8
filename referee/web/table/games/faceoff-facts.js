/* Face Off's words beyond the board (issue 38): where a figure stood before
   it moved (kept from the feed: the moved event names only the squares
   stepped on), the view's other facts in sentences, and the new-game form's
   words for its options. Re-exported by faceoff.js, the plug-in. */

import { coord, figureName } from "./faceoff.js";
import { listWords } from "./pieces.js";

/** Every event of the feed, in order: each figure's square, from the deal and each move. */
export function track(event, memo) {
  const d = event.data || {};
  memo.pos = memo.pos || {};
  if (event.type === "game_setup" && Array.isArray(d.chars)) {
    d.chars.forEach((c, k) => { if (Array.isArray(c.pos)) memo.pos[k] = c.pos; });
  }
  if (event.type === "moved" && Array.isArray(d.path) && d.path.length) memo.pos[d.char] = d.path[d.path.length - 1];
}

/** "Sheriff (…) moved from H4 to J4 (H4 → I4 → J4)": the start from the feed's memory, when known. */
export function movedWords(d, ctx) {
  const path = Array.isArray(d.path) ? d.path : [];
  const verb = d.phase === 2 ? " walked " : " moved ";
  if (!path.length) return figureName(d.char, ctx) + " stayed where it was";
  const from = ctx.memo && ctx.memo.pos ? ctx.memo.pos[d.char] : null;
  const to = coord(path[path.length - 1]);
  if (!Array.isArray(from)) return figureName(d.char, ctx) + verb + "to " + to + (path.length > 1 ? " (" + path.map(coord).join(" → ") + ")" : "");
  return figureName(d.char, ctx) + verb + "from " + coord(from) + " to " + to +
    (path.length > 1 ? " (" + [from, ...path].map(coord).join(" → ") + ")" : "");
}

/** state keys the board, the figures' panels and the prompt draw themselves */
export const drawnFacts = ["map", "figures", "nuggets", "reserve", "characters", "decks", "discards", "round", "active", "phase",
  "last_bids", "general_store", "lucky_cards", "hand", "renegade_hand", "my_bid", "kit_cards", "you", "my_char", "sheriff_seat",
  "distances"];

/** The rest of the state in words. */
export function describeFact(key, value, ctx) {
  const fig = (c) => figureName(c, ctx);
  switch (key) {
    case "sees_at": {
      if (!Array.isArray(value)) return null;
      const rows = value.map((row, a) => fig(a) + " sees " + listWords(row.map((n, b) => (n === null ? null : figureName(b, ctx) + " at " + n))
        .filter(Boolean)));
      return "How far each figure sees the others (its cards counted): " + rows.join("; ") + ".";
    }
    case "turn_start": {
      const st = ctx.state || {};
      return Array.isArray(value) && typeof st.active === "number" && st.phase !== "over" ? "The " + fig(st.active) + " began this turn on " + coord(value) + "." : "";
    }
    case "slots_left": return value ? value + " more draw" + (value === 1 ? "" : "s") + " or walk" + (value === 1 ? "" : "s") + " left in phase 2." : "";
    case "set_aside": return Array.isArray(value) && value.length ? "Set aside: " + listWords(value.map((c) => ctx.name(c))) + "." : "";
    case "renegade_variant": return value ? "The Renegade variant: one of the two kills must be made with the Renegade." : "";
    default: return null;
  }
}

/** The new-game form's words for Face Off's options (the maps from the catalogue). */
export const options = {
  map: { label: "Map", choices: "maps", hint: "the board the figures fight on" },
  renegade_variant: { label: "Renegade variant", hint: "one of a player's two kills must be made with the Renegade" },
};
