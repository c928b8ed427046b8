/* A clocked game's clocks on the table (issue 40 item 2; docs/clocks.md):
   each seat's bank, and for a seat the rules await, its time counting down.
   The view says what was left at the server's time (clock.seats[i].left_ms at
   clock.server_time); the page counts down from there with its own elapsed
   time (performance.now), never its own wall clock, so a client whose clock is
   wrong still shows the referee's. Nothing here for a game without a clock. */

/** "1:05" from ms (rounded up: a clock shows 0:00 only when it ran out) */
export function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

/** The seat's clock as an element (null: the game has no clock). A running
    one carries what was left and when the page drew it, for the ticker. */
export function seatClock(view, seat, ctx) {
  const clock = view && view.clock;
  const entry = clock && Array.isArray(clock.seats) ? clock.seats.find((s) => s.seat === seat) : null;
  if (!entry) return null;
  const box = ctx.el("span", "clock" + (entry.running ? " running" : "") + (entry.bank_ms === 0 ? " flagged" : ""));
  box.setAttribute("data-seat-clock", String(seat));
  box.setAttribute("role", "timer");
  if (entry.running && typeof entry.left_ms === "number" && view.status === "active") {
    box.setAttribute("data-left", String(entry.left_ms));
    box.setAttribute("data-drawn", String(performance.now()));
    box.setAttribute("data-what", entry.reaction ? "to answer" : "left");
  } else {
    box.setAttribute("data-bank", String(entry.bank_ms));
  }
  tickClock(box);
  return box;
}

/** One clock's text now: a running one counts down, a stopped one shows its bank. */
export function tickClock(box) {
  const left = box.getAttribute("data-left");
  if (left === null) {
    const bank = Number(box.getAttribute("data-bank"));
    box.textContent = "⏱ " + (bank === 0 ? "out of time" : mmss(bank) + " banked");
    return;
  }
  const now = Math.max(0, Number(left) - (performance.now() - Number(box.getAttribute("data-drawn"))));
  box.textContent = "⏱ " + mmss(now) + " " + box.getAttribute("data-what");
  box.setAttribute("data-now", String(Math.round(now)));
}

setInterval(() => document.querySelectorAll("[data-seat-clock][data-left]").forEach(tickClock), 250);
