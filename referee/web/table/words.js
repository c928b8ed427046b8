/* Words for the table (issue 38): catalogue ids to display names, any
   value of the view vocabulary to readable text, and the generic words for a
   legal move and an event, used when a ruleset's plug-in has none. Names are
   player input: every word here ends up in textContent, never in HTML. */

/** the catalogue's lists whose entries have an id, a name and a one-line text */
const NAMED = ["cards", "characters", "roles", "faces", "symbols", "dice", "maps"];
/** keys whose values are seat numbers, in views, prompts, moves and events */
export const SEAT_KEYS = new Set(["seat", "seats", "target", "to", "from", "by", "shooter", "source_seat", "other",
  "awaiting", "to_act", "order", "winners", "active", "controller", "challenger", "claimant", "bidder"]);

/** a key whose number is a seat: one of SEAT_KEYS, or any "<what>_seat" (Face Off's "sheriff_seat": "the game
    was set up; ann plays the Sheriff", not "0 plays the Sheriff") */
export function isSeatKey(key) { return SEAT_KEYS.has(key) || String(key).endsWith("_seat"); }

/** id -> catalogue entry, over every named list of a ruleset's catalogue */
export function index(catalogue) {
  const byId = new Map();
  for (const kind of NAMED) {
    for (const entry of (catalogue && catalogue[kind]) || []) if (entry && entry.id) byId.set(entry.id, entry);
  }
  return byId;
}

export function label(key) { return String(key).replace(/_/g, " "); }

/** Any value in words: ids by their catalogue names, seat numbers (under a
    seat key) by the seat's name, lists joined, objects as "key value; …". */
export function word(v, ctx, key) {
  if (v === true) return "yes";
  if (v === false) return "no";
  if (v === null || v === undefined) return "-";
  if (typeof v === "number" && key !== undefined && isSeatKey(key)) return ctx.seatName(v);
  if (typeof v === "string") return ctx.name(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => word(x, ctx, key)).join(", ") : "none";
  if (typeof v === "object") {
    if (typeof v.type === "string" && Object.keys(v).length <= 4) return ctx.describe(v);
    return Object.keys(v).map((k) => label(k) + " " + word(v[k], ctx, k)).join("; ");
  }
  return String(v);
}

/** A legal move in words, without a plug-in: "play: card BANG!, target ann". */
export function moveWords(move, ctx) {
  const rest = Object.keys(move).filter((k) => k !== "type");
  const head = label(move.type);
  if (!rest.length) return head.charAt(0).toUpperCase() + head.slice(1);
  return head.charAt(0).toUpperCase() + head.slice(1) + ": " +
    rest.map((k) => label(k) + " " + word(move[k], ctx, k)).join(", ");
}

/** An event in words without its actor (the core prefixes the actor once):
    the catalogue's phrase with names filled in; its leading "seat {seat} "
    dropped when that seat is the actor, so no line repeats its prefix. */
export function eventWords(ev, ctx) {
  const data = ev.data || {};
  if (ev.type === "move" && data.move && typeof data.move === "object") return "chose “" + ctx.describe(data.move) + "”";
  let template = (ctx.catalogue && ctx.catalogue.phrases && ctx.catalogue.phrases[ev.type]) || null;
  if (template) {
    if (ev.actor !== null && ev.actor !== undefined && data.seat === ev.actor) template = template.replace(/^seat \{seat\} /, "");
    template = template.replace(/seats? \{(\w+)\}/g, "{$1}");  /* a seat's name says it is a seat: "passed it to ann" */
    return template.replace(/\{(\w+)\}/g, (_, k) => word(data[k], ctx, k));
  }
  let text = label(ev.type);
  const shown = Object.keys(data).filter((k) => k !== "seed" && k !== "rng");
  if (shown.length) {
    const w = shown.map((k) => label(k) + " " + word(data[k], ctx, k)).join("; ");
    text += " — " + (w.length > 240 ? w.slice(0, 240) + "…" : w);
  }
  return text;
}
