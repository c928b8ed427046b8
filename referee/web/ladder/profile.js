/* A bot's profile on the ladder page (`#bot=<id>`): who it is, in each
   ladder its rating over time (an inline SVG line of its rating μ − 3σ
   after each rated game: no chart library), its standing, form, results by
   role and health, and its games, each linking to its page
   (`/watch/<game id>`, where the replay shows where it timed out). */
import { el } from "../table/dom.js";
import {
  count, formChips, healthClass, healthWords, kindWords, ladderTitle, percent, provisionalBadge, ratingWords,
} from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
/** the chart's size in its own units (it scales to the page's width) and its margins for the axes' words */
const W = 640, H = 200, LEFT = 44, RIGHT = 12, TOP = 12, BOTTOM = 30;

function $(id) { return document.getElementById(id); }

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  Object.entries(attrs || {}).forEach(([k, v]) => e.setAttribute(k, String(v)));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** "5 Dec 2026, 18:02": when a game finished, in the reader's own zone */
function when(ms) {
  return new Date(ms).toLocaleString(undefined, { day: "numeric", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit" });
}

/** The rating after each rated game, a line over the games in order: a dot a game (filled: won), the
    first and last values and the range on the axes, each dot's words in its title. */
export function ratingChart(history, name) {
  const figure = el("figure", "chart");
  const values = history.map((h) => h.ordinal);
  const lo = Math.floor(Math.min(...values, 0)), hi = Math.ceil(Math.max(...values, 0));
  const span = hi - lo || 1;
  const x = (i) => LEFT + (history.length > 1 ? (i * (W - LEFT - RIGHT)) / (history.length - 1) : (W - LEFT - RIGHT) / 2);
  const y = (v) => TOP + ((hi - v) * (H - TOP - BOTTOM)) / span;
  const chart = svg("svg", { viewBox: "0 0 " + W + " " + H, class: "chart-svg", role: "img",
    "aria-labelledby": "chart-caption-" + name.key });
  [lo, hi, ...(lo < 0 && hi > 0 ? [0] : [])].forEach((v) => {
    chart.appendChild(svg("line", { x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v), class: v === 0 ? "axis zero" : "axis" }));
    chart.appendChild(svg("text", { x: LEFT - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, String(v)));
  });
  chart.appendChild(svg("text", { x: LEFT, y: H - 8, class: "tick" }, "game 1"));
  chart.appendChild(svg("text", { x: W - RIGHT, y: H - 8, class: "tick", "text-anchor": "end" },
    "game " + history.length));
  chart.appendChild(svg("polyline", { class: "line", fill: "none",
    points: history.map((h, i) => x(i).toFixed(1) + "," + y(h.ordinal).toFixed(1)).join(" ") }));
  history.forEach((h, i) => {
    const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(h.ordinal).toFixed(1), r: 4, class: h.won ? "dot won" : "dot lost",
      "data-game": h.game });
    dot.appendChild(svg("title", {}, "game " + (i + 1) + " (" + when(h.at) + "): " + (h.won ? "won" : "lost") +
      ", rating " + h.ordinal.toFixed(1)));
    chart.appendChild(dot);
  });
  figure.appendChild(chart);
  const first = values[0], last = values[values.length - 1];
  const caption = el("figcaption", null, "Rating after each of its " + count(history.length, "rated game", "rated games") +
    ", from " + first.toFixed(1) + " to " + last.toFixed(1) + " (a dot a game; filled: won).");
  caption.id = "chart-caption-" + name.key;
  figure.appendChild(caption);
  return figure;
}

/** Wins by role ("Sheriff: 3 of 5 games (60%)"), where the ruleset has roles. */
function rolesLine(roles) {
  const names = Object.keys(roles || {}).filter((r) => r !== "any");
  if (!names.length) return null;
  return el("p", "roles", "By role: " + names.map((r) => r.replace(/_/g, " ") + " " + roles[r].wins + " of " +
    count(roles[r].games, "game", "games") + " (" + percent(roles[r].win_rate) + ")").join(" · "));
}

/** One ladder of the profile: its standing in words, its chart, form, roles and health. */
function ladderPart(key, standing, ladders, titles) {
  const ladder = ladders.find((l) => l.key === key) || { key, ruleset: key.split(":")[0], players: null };
  const part = el("section", "profile-ladder");
  part.setAttribute("data-ladder", key);
  const head = el("h3", null, ladderTitle(ladder, titles));
  if (standing.provisional) head.appendChild(provisionalBadge(20));
  part.appendChild(head);
  const r = ratingWords(standing.rating);
  const line = el("p", "standing");
  line.appendChild(el("strong", null, "Rating " + r.ordinal));
  line.appendChild(document.createTextNode(" (" + r.parts + ") · " + count(standing.games, "rated game", "rated games") +
    ", " + count(standing.wins, "win", "wins") + " (" + percent(standing.win_rate) + ")"));
  part.appendChild(line);
  if (standing.history.length) part.appendChild(ratingChart(standing.history, { key: key.replace(/[^a-z0-9-]/gi, "-") }));
  const form = el("p", "form-line", "Form: ");
  form.appendChild(formChips(standing.form));
  part.appendChild(form);
  const roles = rolesLine(standing.roles);
  if (roles) part.appendChild(roles);
  const health = el("p", healthClass(standing.health), "Health: " + healthWords(standing.health) + ".");
  part.appendChild(health);
  return part;
}

/** Its games, newest first, each linking to its page. */
function drawGames(games, ladders, titles) {
  const table = $("profile-games"), body = table.querySelector("tbody");
  body.replaceChildren();
  games.forEach((g) => {
    const tr = el("tr");
    tr.setAttribute("data-game", g.id);
    tr.appendChild(el("td", null, when(g.finished_at)));
    const ladder = ladders.find((l) => l.key === g.ladder) || { ruleset: g.ladder, players: null };
    tr.appendChild(el("td", null, ladderTitle(ladder, titles)));
    tr.appendChild(el("td", "num", String(g.seat)));
    tr.appendChild(el("td", g.won ? "won" : "lost", g.won ? "won" : "lost"));
    tr.appendChild(el("td", null, g.rated ? "yes" : "no" + (g.unrated_reason === "same_owner" ?
      " (two bots of one owner at the table)" : g.unrated_reason ? " (" + g.unrated_reason.replace(/_/g, " ") + ")" : "")));
    const cell = el("td");
    const a = el("a", null, "watch the replay");
    a.href = "/watch/" + encodeURIComponent(g.id);
    a.setAttribute("aria-label", "watch the replay of game " + g.id);
    cell.appendChild(a);
    tr.appendChild(cell);
    body.appendChild(tr);
  });
  table.hidden = !games.length;
  $("games-none").hidden = Boolean(games.length);
}

/** The profile of bot `id`, back to ladder `from` (its ladders in the order of the page's tabs). */
export async function drawProfile(referee, id, from, S) {
  const profile = await referee.ladder.botProfile(id);
  const bot = profile.bot;
  $("profile-name").textContent = bot.name + (bot.name !== bot.id ? " (" + bot.id + ")" : "");
  $("profile-who").textContent = kindWords(bot) + (bot.builtin ? "" : " · owner " + bot.owner);
  const back = $("profile-back");
  back.href = from ? "#ladder=" + encodeURIComponent(from) : "#";
  const parts = Object.keys(profile.ladders).sort((a, b) =>
    S.ladders.findIndex((l) => l.key === a) - S.ladders.findIndex((l) => l.key === b));
  $("profile-ladders").replaceChildren(...parts.map((key) => ladderPart(key, profile.ladders[key], S.ladders, S.titles)));
  drawGames(profile.games, S.ladders, S.titles);
  $("profile").hidden = false;
  document.title = "Referee — " + bot.name + ", bot profile";
  $("profile-name").focus({ preventScroll: true });
}
