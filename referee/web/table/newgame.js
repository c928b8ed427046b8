/* The "new game" form (issue 38 item 3): a ruleset, its seats — each a
   person (with a name) or a built-in bot — and the ruleset's yes/no
   options, read from GET /v1/rulesets; the game is created through the
   client and each person gets the link to their seat, the seat's token in
   the fragment only (a fragment never leaves the browser). A refusal shows
   its code and detail in words. */
import { RefereeProblem } from "../client/index.js";

/** the built-in bots a seat may be given (openapi.yaml: CreateGame.seats[].bot) */
const BOTS = [["random", "a built-in bot (random)"], ["heuristic", "a built-in bot (heuristic)"]];

let rowId = 0;

/** the name a seat gets until someone types one: "player 2" for a person, the bot's name for a bot */
function defaultName(index, who) {
  return who === "person" ? "player " + (index + 1) : "bot " + (index + 1) + " (" + who + ")";
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

function booleanOptions(el, ruleset) {
  const box = el("div", "options");
  const props = (ruleset.options && ruleset.options.properties) || {};
  Object.keys(props).forEach((key) => {
    if (props[key].type !== "boolean") return;
    const label = el("label", "option");
    const input = el("input");
    input.type = "checkbox";
    input.name = key;
    input.checked = props[key]["default"] === true;
    label.append(input, document.createTextNode(" " + key.replace(/_/g, " ") +
      (props[key].description ? " — " + props[key].description : "")));
    box.appendChild(label);
  });
  return box;
}

/** The form, built from the rulesets the referee offers. */
export async function newGameForm(referee, el, started) {
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
    const o = el("option", null, r.title + " (" + r.min_players + "–" + r.max_players + " players)");
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
  /* "Add a seat" and "Remove" only where the ruleset's size allows (none at all for Face Off's 2–2) */
  const fit = () => {
    const r = chosen();
    const n = seats.childNodes.length;
    add.hidden = n >= r.max_players;
    seats.querySelectorAll(".seat-row button").forEach((b) => { b.hidden = n <= r.min_players; });
  };
  add.addEventListener("click", () => { seats.appendChild(seatRow(el, seats.childNodes.length, false, fit)); fit(); });
  const go = el("button", "primary", "Start the game");
  go.type = "submit";
  const out = el("div", "newgame-out");
  out.id = "newgame-out";
  out.setAttribute("role", "status");
  const reset = () => {
    const r = chosen();
    seats.replaceChildren();
    const n = Math.max(r.min_players, Math.min(4, r.max_players));
    for (let k = 0; k < n; k++) seats.appendChild(seatRow(el, k, k === 0, fit));
    fit();
    optionsWrap.replaceChildren(booleanOptions(el, r));
  };
  pick.addEventListener("change", reset);
  if (rulesets.length) reset();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = chosen();
    const body = { ruleset: r.name, seats: [...seats.querySelectorAll(".seat-row")].map((row) => {
      const name = row.querySelector(".seat-name-input").value.trim();
      const who = row.querySelector(".seat-who").value;
      return Object.assign(name ? { name } : {}, who === "person" ? {} : { bot: who });
    }) };
    const options = {};
    optionsWrap.querySelectorAll("input[type=checkbox]").forEach((c) => { if (c.checked) options[c.name] = true; });
    if (Object.keys(options).length) body.options = options;
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
      const words = err instanceof RefereeProblem ? "Not started (" + err.code + "): " + (err.detail || err.title)
        : "Not started: " + (err && err.message ? err.message : String(err));
      out.replaceChildren(el("p", "refusal", words));
    } finally {
      go.disabled = false;
    }
  });
  const seatsHead = el("p", null, "Seats, in order around the table:");
  form.append(head, pickLabel, seatsHead, seats, add, optionsWrap, go, out);
  return form;
}
