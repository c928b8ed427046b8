/* A ladder's matchmaking pool on the ladder page (`GET /v1/ladder/{key}/pool`,
   where the referee has one): its stats and each bot's status in words. */
import { el } from "../table/dom.js";
import { count, profileHref } from "./words.js";

function $(id) { return document.getElementById(id); }

/** "3 bots waiting for a table · 2 games being played · median wait for a table 1.2 s · 14 games a minute" */
function statsWords(stats) {
  const ms = stats.median_wait_ms;
  const wait = ms > 0 ? "median wait for a table " + (ms < 1000 ? ms + " ms" : (ms / 1000).toFixed(1) + " s") : null;
  const rate = Math.round(stats.games_per_minute * 10) / 10;
  return [count(stats.queue, "bot waiting for a table", "bots waiting for a table"),
    count(stats.playing_games, "game being played", "games being played"), wait,
    count(rate, "game a minute", "games a minute")].filter(Boolean).join(" · ");
}

/** One entry's status in words: "waiting for a table, playing 1 of its 2 games at once", "paused: …". */
function statusWords(entry) {
  if (entry.status === "paused") return "paused" + (entry.paused_reason ? ": " + entry.paused_reason : "");
  const playing = count(entry.playing, "game", "games") + " being played";
  if (entry.bot.builtin) return "always in the pool, a fixed anchor of the scale; " + playing;
  if (entry.status === "waiting") {
    return "waiting for a table; " + entry.playing + " of its " + count(entry.games_at_once, "game", "games") +
      " at once being played";
  }
  return "playing all its " + count(entry.games_at_once, "game", "games") + " at once";
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
