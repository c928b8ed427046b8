/* Moves nobody chose (issue 42 item 4): a move record whose `by` names a
   default — a registered bot's (`{bot, default: cause}`: it timed out or
   answered something the referee could not play), the turn clock's
   (`{default: "turn_clock"}`) or an away seat's (`{default: "away"}`) — said
   in words with a mark (an icon and a class), so a replay shows where a bot
   failed and what the referee played instead; and each seat's tally of
   them, for the summary of the game. The kinds are the health's
   (referee/play/latency.py): the clock's and a bot's `timeout` are
   timeouts, an away seat's default is neither, any other cause an invalid
   answer. */

/** a cause -> what the bot did, after "seat 2's bot (Floaty) " */
const BOT_DID = {
  timeout: "did not answer in time",
  invalid_answer: "answered something that is not a move of this game",
  illegal_move: "answered a move the rules refuse",
  bad_answer: "sent an answer the referee could not read",
  not_json: "sent an answer that is not JSON",
  no_move: "sent an answer without a move",
  response_too_large: "sent an answer too large to read",
  attempts_spent: "was asked three times and no move of it was recorded",
  unknown_bot: "is no longer registered",
  unreachable: "could not be reached",
  tls_error: "could not be reached securely (TLS failed)",
  url_refused: "has an address the referee refuses to call",
  no_attempt: "was never asked in time",
};

/** a mark per kind: the icon shown before the line, its class, and the kind in words (the icon's title) */
export const MARKS = {
  timeout: { icon: "◷", cls: "ev-timeout", title: "timed out" },
  invalid: { icon: "✗", cls: "ev-invalid", title: "invalid answer" },
  away: { icon: "‖", cls: "ev-away", title: "away" },
};

/** The default a move record names, or null: {cause, bot, kind} (kind: timeout, invalid or away). */
export function defaultOf(ev) {
  const by = ev && ev.type === "move" && ev.data && typeof ev.data.by === "object" ? ev.data.by : null;
  if (!by || typeof by.default !== "string") return null;
  const cause = by.default;
  const kind = cause === "away" ? "away" : cause === "timeout" || cause === "turn_clock" ? "timeout" : "invalid";
  return { cause, bot: typeof by.bot === "string" ? by.bot : null, kind };
}

/** "seat 2's bot (Floaty)", "seat 2 (ann)": a seat as the line names it (a seat's default name is no name) */
function who(seat, ctx, bot) {
  const name = ctx.seatName(seat);
  const named = name && name !== "seat " + seat ? " (" + name + ")" : "";
  return "seat " + seat + (bot ? "'s bot" : "") + named;
}

/** What a default's seat did, in words: "did not answer in time", "answered HTTP error 500". */
function whatHappened(d) {
  if (d.cause === "turn_clock") return "ran out of time on the clock";
  if (d.cause === "away") return "is away";
  if (Object.prototype.hasOwnProperty.call(BOT_DID, d.cause)) return BOT_DID[d.cause];
  const http = /^http_(\d{3})$/.exec(d.cause);
  return http ? "answered with HTTP error " + http[1] : "failed (" + d.cause.replace(/_/g, " ") + ")";
}

/** A default move in words, with its mark's icon first:
    "◷ seat 2's bot (Floaty) did not answer in time — the referee played its default: Pass". */
export function defaultWords(ev, d, ctx) {
  const move = ev.data && ev.data.move && typeof ev.data.move === "object" ? ctx.describe(ev.data.move) : null;
  const who_ = typeof ev.actor === "number" ? who(ev.actor, ctx, d.bot !== null) : "a seat";
  const player = d.cause === "turn_clock" ? "the clock" : "the referee";
  return MARKS[d.kind].icon + " " + who_ + " " + whatHappened(d) + " — " + player + " played its default" +
    (move ? ": " + move : "");
}

/** Each seat's defaults so far, counted by kind: seat -> {timeouts, invalid, away, moves}. */
export function tally(memo, ev) {
  if (!ev || ev.type !== "move" || typeof ev.actor !== "number") return;
  const counts = memo[ev.actor] || (memo[ev.actor] = { moves: 0, timeouts: 0, invalid: 0, away: 0 });
  const d = defaultOf(ev);
  if (!d) counts.moves += 1;
  else if (d.kind === "timeout") counts.timeouts += 1;
  else if (d.kind === "invalid") counts.invalid += 1;
  else counts.away += 1;
}

function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }

/** One seat's tally in words: "2 timeouts and 1 invalid answer in 41 turns — the referee played 3 defaults". */
export function tallyWords(c) {
  const turns = c.moves + c.timeouts + c.invalid + c.away;
  const failed = [c.timeouts ? plural(c.timeouts, "timeout", "timeouts") : null,
    c.invalid ? plural(c.invalid, "invalid answer", "invalid answers") : null,
    c.away ? plural(c.away, "turn away", "turns away") : null].filter(Boolean);
  if (!failed.length) return "answered all " + plural(turns, "turn", "turns") + " itself";
  const defaults = c.timeouts + c.invalid + c.away;
  return failed.join(" and ") + " in " + plural(turns, "turn", "turns") + " — the referee played " +
    plural(defaults, "default", "defaults") + " for it";
}

/** "Floaty (seat 0, a registered bot)", "seat 2 (the built-in random bot)": a seat in the summary */
function seatWords(s, ctx) {
  const name = ctx.seatName(s.seat);
  const kind = s.bot === "random" || s.bot === "heuristic" ? "the built-in " + s.bot + " bot" :
    s.bot ? "a registered bot" : "a player";
  return (name && name !== "seat " + s.seat ? name + " (seat " + s.seat + ", " : "seat " + s.seat + " (") + kind + ")";
}

/** The summary of how the bots answered (the whole game's, once it is over; so far, once a default was
    played in a game still running): a heading and one line per bot seat, and per other seat that got a
    default; null: nothing to say. */
export function answersBox(view, over, memo, ctx, el) {
  const seats = Array.isArray(view.seats) ? view.seats : [];
  const defaults = (c) => (c ? c.timeouts + c.invalid + c.away : 0);
  if (!over && !Object.values(memo).some((c) => defaults(c) > 0)) return null;
  const rows = seats.filter((s) => s && (s.bot || defaults(memo[s.seat]) > 0));
  if (!rows.length) return null;
  const box = el("div", "answers");
  box.appendChild(el("h3", "answers-head", over ? "How the bots answered" : "Defaults played so far"));
  const ul = el("ul", "answers-list");
  rows.forEach((s) => {
    const c = memo[s.seat] || { moves: 0, timeouts: 0, invalid: 0, away: 0 };
    const li = el("li", c.timeouts + c.invalid ? "answers-bad" : c.away ? "answers-away" : "answers-ok");
    li.setAttribute("data-seat", String(s.seat));
    li.setAttribute("data-timeouts", String(c.timeouts));
    li.setAttribute("data-invalid", String(c.invalid));
    li.appendChild(el("strong", null, seatWords(s, ctx) + ": "));
    li.appendChild(document.createTextNode(tallyWords(c) + "."));
    ul.appendChild(li);
  });
  box.appendChild(ul);
  return box;
}
