/* A ladder's matchmaking pool on the ladder page (`GET /v1/ladder/{key}/pool`,
   where the referee has one): its stats and each bot's status in words. */
import { el } from "../table/dom.js";
import { count, profileHref } from "./words.js";

function $(id) { return document.getElementById(id); }

/** "3 waiting for a table · 2 games being played · median wait 1.2 s · 14 games a minute" */
function statsWords(stats) {
  const wait = typeof stats.median_wait_ms === "number" ? "median wait for a table " +
    (stats.median_wait_ms < 1000 ? stats.median_wait_ms + " ms" : (stats.median_wait_ms / 1000).toFixed(1) + " s") : null;
  return [count(stats.queue, "bot waiting for a table", "bots waiting for a table"),
    count(stats.playing_games, "game being played", "games being played"), wait,
    stats.games_per_minute + " games a minute"].filter(Boolean).join(" · ");
}

/** One entry's status in words: "in the pool, playing 1 of its 2 games at once", "paused: it kept timing out". */
function statusWords(entry) {
  if (entry.status === "paused") {
    return "paused" + (entry.paused_reason ? ": " + entry.paused_reason.replace(/_/g, " ") : "");
  }
  if (entry.status === "anchor" || entry.bot.builtin) return "always in the pool, a fixed anchor of the scale";
  const playing = typeof entry.playing === "number" ? entry.playing : 0;
  return "in the pool, playing " + playing + (entry.games_at_once ? " of its " + count(entry.games_at_once,
    "game", "games") + " at once" : "");
}

/** The pool of ladder `key`, below its table. */
export function drawPool(pool, key) {
  $("pool-stats").textContent = statsWords(pool.stats);
  const ul = $("pool-entries");
  ul.replaceChildren();
  pool.entries.forEach((entry) => {
    const li = el("li", entry.status === "paused" ? "paused" : null);
    li.setAttribute("data-bot", entry.bot.id);
    li.setAttribute("data-status", entry.status);
    const a = el("a", null, entry.bot.name);
    a.href = profileHref(entry.bot.id, key);
    li.appendChild(a);
    li.appendChild(document.createTextNode(": " + statusWords(entry)));
    ul.appendChild(li);
  });
  $("pool").hidden = false;
}
