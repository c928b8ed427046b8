/* A clocked game's clocks on the table (issue 40 item 2; docs/clocks.md):
   each seat's bank, and for a seat the rules await, its time counting down.
   The view says what was left at the server's time; the JavaScript client's
   clockLeft counts down from there by the page's own elapsed time
   (performance.now), never its own wall clock, so a client whose clock is
   wrong still shows the referee's. Nothing here for a game without a clock. */
import { clockLeft } from "../client/index.js";

/** each running clock drawn: the view it was drawn from, its seat, when (performance.now) */
const drawn = new WeakMap();

/** "1:05" from ms (rounded up: a clock shows 0:00 only when it ran out) */
export function mmss(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

/** The seat's clock as an element (null: the game has no clock). */
export function seatClock(view, seat, ctx) {
  const clock = view && view.clock;
  const entry = clock && Array.isArray(clock.seats) ? clock.seats.find((s) => s.seat === seat) : null;
  if (!entry) return null;
  const running = entry.running && view.status === "active";
  const box = ctx.el("span", "clock" + (running ? " running" : "") + (entry.bank_ms === 0 ? " flagged" : ""));
  box.setAttribute("data-seat-clock", String(seat));
  box.setAttribute("role", "timer");
  if (running) {
    box.setAttribute("data-left", "");
    box.setAttribute("data-what", entry.reaction ? "to answer" : "left");
    drawn.set(box, { view, seat, at: performance.now() });
  } else {
    box.setAttribute("data-bank", String(entry.bank_ms));
  }
  tickClock(box);
  return box;
}

/** One clock's text now, in words and m:ss (no symbol a font may lack): a running one counts
    down ("4:54 left", "0:12 to answer"), a stopped one shows its bank ("5:00 on the clock"). */
export function tickClock(box) {
  const running = drawn.get(box);
  if (!running) {
    const bank = Number(box.getAttribute("data-bank"));
    box.textContent = bank === 0 ? "out of time" : mmss(bank) + " on the clock";
    return;
  }
  const now = clockLeft(running.view, running.seat, performance.now() - running.at) || 0;
  box.textContent = mmss(now) + " " + box.getAttribute("data-what");
  box.setAttribute("data-now", String(Math.round(now)));
}

setInterval(() => document.querySelectorAll("[data-seat-clock][data-left]").forEach(tickClock), 250);
