/* The ladder page (issue 42 item 2): `/watch/ladder.html`, built on the
   JavaScript client. A tab per ladder (one a ruleset, `bang:3` its own),
   its table ranked by rating, each bot linking to its profile
   (`#bot=<id>`: profile.js); the ladder's matchmaking pool where the
   referee has one. The place is in the URL's fragment: `#ladder=<key>`,
   `#bot=<id>&ladder=<key>`. */
import { Referee } from "../client/index.js";
import { el } from "../table/dom.js";
import { drawProfile } from "./profile.js";
import { drawPool } from "./pool.js";
import {
  count, formChips, healthClass, healthWords, ladderTitle, percent, profileHref, provisionalBadge, ratingWords,
} from "./words.js";

/** rows a page of the table asks for at once */
const PAGE = 50;

const referee = new Referee({ baseUrl: "" });
const S = { ladders: null, titles: new Map(), key: null, pools: null, shown: false };

function $(id) { return document.getElementById(id); }

/** `#ladder=bang&bot=x` as {ladder, bot} */
function place() {
  const out = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const [k, v] = part.split("=");
    if (k && v !== undefined) out[k] = decodeURIComponent(v);
  }
  return out;
}

/** The tabs, one a ladder; the one shown is selected (arrow keys move between them, as a tab list's do). */
function drawTabs() {
  const tabs = $("tabs");
  tabs.replaceChildren();
  S.ladders.forEach((ladder) => {
    const selected = ladder.key === S.key;
    const tab = el("a", "tab", ladderTitle(ladder, S.titles));
    tab.href = "#ladder=" + encodeURIComponent(ladder.key);
    tab.id = "tab-" + ladder.key.replace(/[^a-z0-9-]/gi, "-");
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-selected", String(selected));
    tab.setAttribute("aria-controls", "board");
    tab.setAttribute("data-key", ladder.key);
    tab.tabIndex = selected ? 0 : -1;
    tab.appendChild(el("span", "tab-count", " " + count(ladder.bots, "bot", "bots") + " · " +
      count(ladder.games, "game", "games")));
    tabs.appendChild(tab);
  });
  tabs.hidden = false;
  $("board").setAttribute("aria-labelledby", "tab-" + S.key.replace(/[^a-z0-9-]/gi, "-"));
}

function onTabKey(e) {
  if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
  const tabs = [...$("tabs").querySelectorAll("[role=tab]")];
  const i = tabs.indexOf(document.activeElement);
  if (i < 0) return;
  const next = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
  next.focus();
  location.hash = next.getAttribute("href");
}

/** One row of the table: rank, bot (its profile's link), rating, games, wins, form, health. */
function drawRow(row, below) {
  const tr = el("tr");
  tr.setAttribute("data-bot", row.bot.id);
  tr.setAttribute("data-rank", String(row.rank));
  if (row.provisional) tr.className = "provisional";
  tr.appendChild(el("td", "rank", String(row.rank)));
  const who = el("th");
  who.scope = "row";
  const a = el("a", "bot-link", row.bot.name);
  a.href = profileHref(row.bot.id, S.key);
  who.appendChild(a);
  if (row.bot.builtin) who.appendChild(el("span", "badge builtin", "built-in"));
  if (row.provisional) who.appendChild(provisionalBadge(below));
  tr.appendChild(who);
  const r = ratingWords(row.rating);
  const rating = el("td", "rating");
  rating.appendChild(el("strong", null, r.ordinal));
  rating.appendChild(el("span", "muted rating-parts", " " + r.parts));
  tr.appendChild(rating);
  tr.appendChild(el("td", "num", String(row.games)));
  const wins = el("td", "num", row.wins + " (" + percent(row.win_rate) + ")");
  const roles = Object.keys(row.roles || {}).filter((r) => r !== "any");
  if (roles.length) {  /* a ruleset with roles: the wins of each */
    wins.appendChild(el("span", "roles-cell", roles.map((r) => r.replace(/_/g, " ") + " " + row.roles[r].wins + "/" +
      row.roles[r].games).join(" · ")));
  }
  tr.appendChild(wins);
  const form = el("td");
  form.appendChild(formChips(row.form));
  tr.appendChild(form);
  tr.appendChild(el("td", healthClass(row.health), healthWords(row.health)));
  return tr;
}

/** A ladder's table, page after page ("Show more" asks for the next). */
async function drawBoard(key) {
  const board = $("board");
  const first = await referee.ladder.ladder(key, { limit: PAGE });
  const table = el("table", "ladder-table");
  table.appendChild(el("caption", null, ladderTitle(first, S.titles) + ": " + "ranked by rating (μ − 3σ)"));
  const head = el("tr");
  const roled = first.items.some((row) => Object.keys(row.roles || {}).some((r) => r !== "any"));
  ["Rank", "Bot", "Rating", "Games", roled ? "Wins (by role: won/played)" : "Wins", "Form (oldest first)", "Health"].forEach((h) => {
    const th = el("th", null, h);
    th.scope = "col";
    head.appendChild(th);
  });
  const thead = el("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el("tbody");
  table.appendChild(body);
  const more = el("button", "more", "Show more bots");
  more.type = "button";
  let page = first;
  const add = () => {
    page.items.forEach((row) => body.appendChild(drawRow(row, first.provisional_below)));
    more.hidden = !page.next_cursor;
  };
  more.addEventListener("click", async () => {
    more.disabled = true;
    page = await referee.ladder.ladder(key, { limit: PAGE, cursor: page.next_cursor });
    more.disabled = false;
    add();
  });
  add();
  board.replaceChildren(table, more);
  board.setAttribute("data-key", key);
  const several = first.items.some((row) => row.bot.builtin) ? " A built-in bot counts each seat it held as a " +
    "game: it may hold several seats of one table." : "";
  board.appendChild(el("p", "muted", "Provisional: fewer than " + first.provisional_below +
    " rated games. A bot's name opens its profile: its rating over time, its games and its health." + several));
  board.hidden = false;
}

/** Which ladders have a pool: only where the referee's contract has the route (no request that can only 404). */
async function pools() {
  if (S.pools === null) {
    const contract = await referee.openapi();
    S.pools = contract.includes("/v1/ladder/{key}/pool:");
  }
  return S.pools;
}

async function showLadder(key) {
  S.key = key;
  $("profile").hidden = true;
  $("boards").hidden = false;
  if (S.shown) S.ladders = (await referee.ladder.ladders()).ladders; // the tabs' counts as of now, not the first load
  S.shown = true;
  drawTabs();
  $("ladder-status").hidden = true;
  await drawBoard(key);
  $("pool").hidden = true;
  if (await pools()) drawPool(await referee.ladder.pool(key), key);
  document.title = "Referee — " + ladderTitle(S.ladders.find((l) => l.key === key), S.titles) + " ladder";
}

async function route() {
  document.body.setAttribute("data-loaded", "pending");
  const at = place();
  if (!S.ladders.length) {
    $("ladder-status").textContent = "No rated game has been played yet: the ladder starts with the first one " +
      "(a tournament's games, the pool's, or a game of bots created with the option rated).";
  }
  if (at.bot) {
    $("boards").hidden = true;
    await drawProfile(referee, at.bot, at.ladder, S);
  } else if (S.ladders.length) {
    const key = S.ladders.some((l) => l.key === at.ladder) ? at.ladder : S.ladders[0].key;
    await showLadder(key);
  }
  document.body.setAttribute("data-loaded", "true");
}

async function start() {
  const [{ ladders }, { rulesets }] = await Promise.all([referee.ladder.ladders(), referee.rulesets.list()]);
  S.ladders = ladders;
  (rulesets || []).forEach((r) => S.titles.set(r.name, r.title || r.name));
  $("tabs").addEventListener("keydown", onTabKey);
  window.addEventListener("hashchange", () => { route().catch(failed); });
  await route();
}

function failed(e) {
  $("ladder-status").hidden = false;
  $("boards").hidden = false;
  $("ladder-status").textContent = "The ladder could not be read: " + (e && e.message ? e.message : String(e));
  document.body.setAttribute("data-loaded", "false");
}

start().catch(failed);
