/* Presence on the table (issue 40 item 1): each person's seat shows whether
   its client is here (a filled dot) or away (a hollow one), in words too,
   since when (its title), and who plays it while it is taken over; the view
   is asked again every PRESENCE_REFRESH_MS while the game is on, since a seat
   goes away without any event. */

/** how often the page asks for the view again while the game is on (presence changes between events) */
export const PRESENCE_REFRESH_MS = 10000;

function clockTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** A seat's presence dot and words, or null for a seat no person holds (a bot's, one still open). */
export function presenceDot(ctx, seat) {
  if (!seat || typeof seat.connected !== "boolean") return null;
  const here = seat.connected;
  const dot = ctx.el("span", "presence " + (here ? "here" : "away"), (here ? "● here" : "○ away"));
  dot.setAttribute("data-connected", String(here));
  const since = typeof seat.since === "number" ? clockTime(seat.since) : null;
  dot.title = here ? "connected since " + since : since ? "away since " + since : "not seen yet";
  if (typeof seat.played_by === "string") {
    const by = seat.played_by === "default" ? "its default moves" : "the " + seat.played_by + " bot";
    const wrap = ctx.el("span", "presence-wrap");
    wrap.appendChild(dot);
    const taken = ctx.el("span", "badge played-by", "played by " + by + " until it returns");
    taken.setAttribute("data-played-by", seat.played_by);
    wrap.appendChild(document.createTextNode(" "));
    wrap.appendChild(taken);
    return wrap;
  }
  return dot;
}

/** Ask for the view again now and then while the game shown (``current()``) is on. */
export function watchPresence(current) {
  setInterval(() => {
    const view = current();
    const people = view && Array.isArray(view.seats) && view.seats.some((s) => typeof s.connected === "boolean");
    if (people && view.status === "active" && !document.hidden && window.RefereeWatch) window.RefereeWatch.refresh();
  }, PRESENCE_REFRESH_MS);
}
