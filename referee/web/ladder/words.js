/* The ladder page's words (issue 42 item 2): a bot, its rating, its form
   and its health as a person reads them. Every word ends up in
   textContent, never in HTML (a bot's name is its owner's input). */
import { el } from "../table/dom.js";

/** "2 timeouts", "1 invalid answer": a count and its noun */
export function count(n, one, many) {
  return n + " " + (n === 1 ? one : many);
}

/** A ladder's title: its ruleset's ("Bluffaneer"), and its player count when it is kept for one ("BANG! · 3 players"). */
export function ladderTitle(ladder, titles) {
  const title = titles.get(ladder.ruleset) || ladder.ruleset;
  return ladder.players ? title + " · " + ladder.players + " players" : title;
}

/** "a built-in bot", "an outbound bot"…: what kind of bot it is */
export function kindWords(bot) {
  return { builtin: "a built-in bot, a fixed anchor of the scale", webhook: "a webhook bot",
    outbound: "an outbound bot", gone: "a bot no longer registered" }[bot.kind] || "a bot";
}

/** A rating in one figure and its parts: "22.5" and "μ 31.2 ± 2.9". */
export function ratingWords(rating) {
  return { ordinal: rating.ordinal.toFixed(1), parts: "μ " + rating.mu.toFixed(1) + " ± " + rating.sigma.toFixed(1) };
}

/** "53%" */
export function percent(rate) {
  return Math.round(100 * rate) + "%";
}

/** Health in words: "2 timeouts, 1 invalid answer in 340 moves; median 12 ms". */
export function healthWords(h) {
  if (!h) return "no moves recorded yet";
  const turns = h.moves + h.timeouts + h.invalid;
  const failed = [h.timeouts ? count(h.timeouts, "timeout", "timeouts") : null,
    h.invalid ? count(h.invalid, "invalid answer", "invalid answers") : null].filter(Boolean);
  const head = (failed.length ? failed.join(", ") : "no timeouts or invalid answers") + " in " +
    count(turns, "move", "moves");
  if (typeof h.median_ms !== "number") return head;
  return head + "; median " + (h.median_ms < 1 ? "under 1 ms" : h.median_ms + " ms");
}

/** The health's class: a bot that failed at some of its turns is shown apart. */
export function healthClass(h) {
  return h && h.timeouts + h.invalid > 0 ? "health bad" : "health";
}

/** The last results as chips, oldest first: W (won) and L (lost), said in full to a screen reader. */
export function formChips(form) {
  const box = el("span", "form");
  const said = form.map((r) => (r === "W" ? "won" : "lost"));
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", form.length ? "last " + form.length + " results, oldest first: " + said.join(", ")
    : "no results yet");
  form.forEach((r) => {
    const chip = el("span", "chip " + (r === "W" ? "won" : "lost"), r);
    chip.setAttribute("aria-hidden", "true");
    box.appendChild(chip);
  });
  if (!form.length) box.appendChild(el("span", "muted", "—"));
  return box;
}

/** The provisional badge: few rated games, the rating may still move a lot. */
export function provisionalBadge(below) {
  const b = el("span", "badge provisional", "provisional");
  b.title = "fewer than " + below + " rated games: the rating may still move a lot";
  return b;
}

/** "#bot=…": a bot's profile on this page */
export function profileHref(id, ladder) {
  return "#bot=" + encodeURIComponent(id) + (ladder ? "&ladder=" + encodeURIComponent(ladder) : "");
}
