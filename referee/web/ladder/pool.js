/* A ladder's matchmaking pool on the ladder page (`GET /v1/ladder/{key}/pool`,
   where the referee has one): its stats and each bot's status in words. */
import { el } from "../table/dom.js";
import { count, profileHref } from "./words.js";

function $(id) { return document.getElementById(id); }

/** "3 bots waiting for a table · 2 games being played · 14 games started a minute · median wait for a table 1.2 s" */
function statsWords(stats) {
  const ms = stats.median_wait_ms;
  const wait = ms > 0 ? "median wait for a table " + (ms < 1000 ? ms + " ms" : (ms / 1000).toFixed(1) + " s") : null;
  const rate = Math.round(stats.games_per_minute * 10) / 10;
  return [count(stats.queue, "bot waiting for a table", "bots waiting for a table"),
    count(stats.playing_games, "game being played", "games being played"),
    count(rate, "game started a minute", "games started a minute") + " (the last five minutes)", wait]
    .filter(Boolean).join(" · ");
}

/** "playing no game now", "playing 2 games now" */
function playingWords(n) {
  return n === 0 ? "playing no game now" : "playing " + count(n, "game", "games") + " now";
}

/** One entry's status in words: "waiting for a table; playing 1 game now (at most 2 games at once)", "paused: …". */
function statusWords(entry) {
  if (entry.status === "paused") {
    return "paused: " + (entry.paused_reason || "its games went wrong") + ". Its owner puts it in again to resume.";
  }
  const games = count(entry.games_at_once, "game", "games");
  if (entry.bot.builtin && entry.since === null) {
    return "built in, a fixed anchor of the scale: " + playingWords(entry.playing) +
      " (the built-in bots sit in at most " + games + " at once)";
  }
  // a built-in bot the admin put in: no anchor here, it plays as an entry (warming or measuring the pool)
  const head = entry.bot.builtin ? "built in, put in by the admin to keep the pool playing; " : "";
  if (entry.status === "waiting") {
    return head + "waiting for a table; " + playingWords(entry.playing) + " (at most " + games + " at once)";
  }
  return head + "playing " + games + " now, all it may play at once";
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
