/* The "new game" form (issue 38 item 3): a ruleset, its seats — each a
   person (with a name) or a built-in bot — and the options the ruleset's
   schema (GET /v1/rulesets) says it takes, in the words of its plug-in
   (`options`): only what the referee accepts is offered (a property marked
   `x-refused` is not). The game is created through the client and each
   person gets the link to their seat, the seat's token in the fragment
   only (a fragment never leaves the browser). A refusal shows its detail
   in words. */
import { RefereeProblem } from "../client/index.js";
import { tableOptions } from "./tableoptions.js";

/** the built-in bots a seat may be given (openapi.yaml: CreateGame.seats[].bot) */
const BOTS = [["random", "a built-in bot (random)"], ["heuristic", "a built-in bot (heuristic)"]];

let rowId = 0;

/** the name a seat gets until someone types one: "player 2" for a person, "heuristic bot 3" for a bot */
function defaultName(index, who) {
  return who === "person" ? "player " + (index + 1) : who + " bot " + (index + 1);  /* no brackets: names go inside them */
}

function seatRow(el, index, person, changed) {
  const row = el("li", "seat-row");
  const n = ++rowId;
  const nameLabel = el("label", null, "Name ");
  const name = el("input");
  name.type = "text";
  name.maxLength = 64;
  name.id = "seat-name-" + n;
  name.className = "seat-name-input";
  name.value = defaultName(index, person ? "person" : "random");
  name.setAttribute("data-auto", "yes");  /* until typed in, the name follows the seat's kind */
  name.addEventListener("input", () => name.removeAttribute("data-auto"));
  nameLabel.htmlFor = name.id;
  const whoLabel = el("label", null, " plays as ");
  const who = el("select");
  who.id = "seat-who-" + n;
  who.className = "seat-who";
  whoLabel.htmlFor = who.id;
  const p = el("option", null, "a person (gets a link)");
  p.value = "person";
  who.appendChild(p);
  BOTS.forEach(([id, words]) => { const o = el("option", null, words); o.value = id; who.appendChild(o); });
  who.value = person ? "person" : "random";
  who.addEventListener("change", () => {
    if (name.hasAttribute("data-auto")) name.value = defaultName([...row.parentNode.children].indexOf(row), who.value);
  });
  const remove = el("button", "quiet", "Remove");
  remove.type = "button";
  remove.setAttribute("aria-label", "Remove this seat");
  remove.addEventListener("click", () => { row.remove(); changed(); });
  row.append(nameLabel, name, whoLabel, who, document.createTextNode(" "), remove);
  return row;
}

/** An option's description for a player, where the plug-in has no words: the schema's text without its rule numbers. */
function plainWords(text) {
  return String(text || "").replace(/\(?\b[A-Z]{1,2}\d+(?:[–-][A-Z]{0,2}\d+)?(?:, [A-Z]{1,2}\d+)*\)?:?/g, "").replace(/\s+([,.;)])/g, "$1")
    .replace(/\(\s*\)/g, "").replace(/\s{2,}/g, " ").trim();
}

let optionId = 0;

/** One option as a control a person understands, from its schema (its type,
    bounds and default) and the plug-in's words (`options[key]`): a checkbox,
    a number in the plug-in's unit, a choice of seats or of the catalogue's
    entries. null for an option the form cannot offer (a list, an object) or
    one the schema marks refused (`x-refused`): the referee's defaults stand. */
function optionControl(el, key, prop, words, catalogue) {
  if (prop["x-refused"]) return null;
  const w = words || {};
  const id = "option-" + (++optionId);
  const name = w.label || key.replace(/_/g, " ");
  const hint = w.hint !== undefined ? w.hint : plainWords(prop.description);
  const types = [].concat(prop.type || []);
  const row = el("p", "option");
  const lab = el("label", null, name);
  lab.htmlFor = id;
  const note = hint ? el("span", "option-hint muted", " — " + hint) : null;
  if (types.includes("boolean") && types.length === 1) {
    const box = el("input");
    box.type = "checkbox";
    box.id = id;
    box.checked = prop["default"] === true;
    row.append(box, document.createTextNode(" "), lab);
    if (note) row.appendChild(note);
    const said = el("span", "muted", "");
    if (w.follows) row.appendChild(said);
    return { row, read: () => (box.checked !== (prop["default"] === true) ? box.checked : undefined),
      fit: (names) => {
        if (!w.follows) return;
        box.checked = Boolean(w.follows(names.length));
        box.disabled = true;
        said.textContent = " (" + (box.checked ? "on" : "off") + ": set by the number of seats)";
      } };
  }
  if ((types.includes("integer") || types.includes("number")) && w.seats) {
    const pick = el("select");
    pick.id = id;
    row.append(lab, document.createTextNode(" "), pick);
    if (note) row.appendChild(note);
    return { row, read: () => (pick.value === "" ? undefined : Number(pick.value)),
      fit: (names) => {
        const was = pick.value;
        const top = typeof prop.maximum === "number" ? prop.maximum : names.length - 1;
        const unset = el("option", null, w.unset || "the referee's choice");
        unset.value = "";
        pick.replaceChildren(unset, ...names.slice(0, top + 1).map((n, k) => {
          const o = el("option", null, n);
          o.value = String(k);
          return o;
        }));
        pick.value = Number(was) < names.length ? was : "";
      } };
  }
  if ((types.includes("integer") || types.includes("number")) && typeof prop.minimum === "number" && typeof prop.maximum === "number") {
    const scale = w.scale || 1;
    const input = el("input");
    input.type = "number";
    input.id = id;
    input.min = String(Math.ceil(prop.minimum / scale));
    input.max = String(Math.floor(prop.maximum / scale));
    input.step = "1";
    const start = w.suggested !== undefined ? w.suggested : prop["default"];
    input.value = String(Math.round((start !== undefined ? start : prop.minimum) / scale));
    input.required = true;
    row.append(lab, document.createTextNode(" "), input, el("span", null, " " + (w.unit || "") + " (" + input.min + " to " + input.max + ")"));
    if (note) row.appendChild(note);
    return { row, read: () => Math.round(Number(input.value) * scale), fit: () => {} };
  }
  const entries = w.choices && catalogue && Array.isArray(catalogue[w.choices]) ? catalogue[w.choices]
    : Array.isArray(prop["enum"]) ? prop["enum"].map((v) => ({ id: v, name: String(v).replace(/_/g, " ") })) : null;
  if (!entries || !entries.length) return null;
  const pick = el("select");
  pick.id = id;
  entries.forEach((e) => { const o = el("option", null, e.name || e.id); o.value = e.id; pick.appendChild(o); });
  if (prop["default"] !== undefined) pick.value = String(prop["default"]);
  row.append(lab, document.createTextNode(" "), pick);
  if (note) row.appendChild(note);
  return { row, read: () => (pick.value !== String(prop["default"]) ? pick.value : undefined), fit: () => {} };
}

/** The ruleset's options the form can offer, each a control (see optionControl). */
async function optionControls(el, ruleset, plugin, catalogue) {
  const props = (ruleset.options && ruleset.options.properties) || {};
  const words = (plugin && plugin.options) || {};
  const box = el("div", "options");
  const controls = [];
  Object.keys(props).forEach((key) => {
    const c = optionControl(el, key, props[key], words[key], catalogue);
    if (!c) return;
    c.key = key;
    controls.push(c);
    box.appendChild(c.row);
  });
  if (controls.length) box.prepend(el("p", "options-head", "Options:"));
  return { box, controls };
}

/** The form, built from the rulesets the referee offers; `plugin(name)` gives
    a ruleset's plug-in (its words for the options) or null. */
export async function newGameForm(referee, el, started, plugin) {
  const { rulesets } = await referee.rulesets.list();  /* the body as served: {rulesets} */
  const form = el("form", "newgame-form");
  form.setAttribute("aria-labelledby", "newgame-head");
  const head = el("h2", null, "Start a new game");
  head.id = "newgame-head";
  const pickLabel = el("label", null, "Game ");
  const pick = el("select");
  pick.id = "newgame-ruleset";
  pickLabel.htmlFor = pick.id;
  rulesets.forEach((r) => {
    const o = el("option", null, r.title + " (" + r.min_players + (r.max_players > r.min_players ? "–" + r.max_players : "") + " players)");
    o.value = r.name;
    pick.appendChild(o);
  });
  pickLabel.appendChild(pick);
  const seats = el("ol", "seat-rows");
  seats.id = "newgame-seats";
  const optionsWrap = el("div");
  const add = el("button", null, "Add a seat");
  add.type = "button";
  const chosen = () => rulesets.find((r) => r.name === pick.value) || rulesets[0];
  let options = { controls: [] };
  const names = () => [...seats.querySelectorAll(".seat-name-input")].map((i, k) => i.value.trim() || "seat " + (k + 1));
  /* "Add a seat" and "Remove" only where the ruleset's size allows (none at all for Face Off's 2–2) */
  const fit = () => {
    const r = chosen();
    const n = seats.childNodes.length;
    add.hidden = n >= r.max_players;
    seats.querySelectorAll(".seat-row button").forEach((b) => { b.hidden = n <= r.min_players; });
    options.controls.forEach((c) => c.fit(names()));
  };
  seats.addEventListener("input", fit);
  seats.addEventListener("change", fit);
  add.addEventListener("click", () => { seats.appendChild(seatRow(el, seats.childNodes.length, false, fit)); fit(); });
  const table = tableOptions(el);  /* the same for every ruleset: made once, kept across a change of game */
  const go = el("button", "primary", "Start the game");
  go.type = "submit";
  const out = el("div", "newgame-out");
  out.id = "newgame-out";
  out.setAttribute("role", "status");
  let asked = 0;
  const reset = async () => {
    const r = chosen();
    const ask = ++asked;
    seats.replaceChildren();
    const n = Math.max(r.min_players, Math.min(4, r.max_players));
    for (let k = 0; k < n; k++) seats.appendChild(seatRow(el, k, k === 0, fit));
    options = { controls: [] };
    optionsWrap.replaceChildren();
    fit();
    const own = plugin ? await plugin(r.name) : null;
    const wanted = own && own.options && Object.values(own.options).some((w) => w.choices);
    const catalogue = wanted ? await referee.rulesets.catalogue(r.name) : null;
    const made = await optionControls(el, r, own, catalogue);
    if (ask !== asked) return;  /* another ruleset was picked meanwhile */
    options = made;
    optionsWrap.replaceChildren(made.box);
    fit();
  };
  pick.addEventListener("change", reset);
  if (rulesets.length) await reset();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = chosen();
    const body = { ruleset: r.name, seats: [...seats.querySelectorAll(".seat-row")].map((row) => {
      const name = row.querySelector(".seat-name-input").value.trim();
      const who = row.querySelector(".seat-who").value;
      return Object.assign(name ? { name } : {}, who === "person" ? {} : { bot: who });
    }) };
    const chosenOptions = {};
    options.controls.forEach((c) => { const v = c.read(); if (v !== undefined) chosenOptions[c.key] = v; });
    Object.assign(chosenOptions, table.read());  /* the clock, the chat, spectators, leaving, a series */
    if (Object.keys(chosenOptions).length) body.options = chosenOptions;
    go.disabled = true;
    out.replaceChildren(el("p", "muted", "starting…"));
    try {
      const game = await referee.games.create(body);
      const list = el("ul", "links");
      game.seats.forEach((s) => {
        if (!s.token) return;
        const li = el("li");
        const a = el("a", "seat-link", "Play as " + (s.name || "seat " + s.seat));
        a.href = "/watch/" + encodeURIComponent(game.id) + "#token=" + encodeURIComponent(s.token);
        a.setAttribute("data-seat", String(s.seat));
        li.append(a, el("span", "muted", " — this link is " + (s.name || "seat " + s.seat) + "'s alone: it holds their seat's secret"));
        list.appendChild(li);
      });
      const watch = el("a", "watch-link", "Watch as a spectator");
      watch.href = "/watch/" + encodeURIComponent(game.id);
      const li = el("li");
      li.appendChild(watch);
      list.appendChild(li);
      out.replaceChildren(el("p", null, "Game " + game.id + " started. Give each person their link:"), list);
      if (started) await started();
    } catch (err) {
      const words = err instanceof RefereeProblem ? "Not started: " + (err.detail || err.title) + (err.rule ? " (rule " + err.rule + ")" : "")
        : "Not started: " + (err && err.message ? err.message : String(err));
      out.replaceChildren(el("p", "refusal", words));
    } finally {
      go.disabled = false;
    }
  });
  const seatsHead = el("p", null, "Seats, in order around the table:");
  form.append(head, pickLabel, seatsHead, seats, add, optionsWrap, table.box, go, out);
  return form;
}
