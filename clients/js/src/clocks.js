/* A clocked game's clocks (docs/clocks.md): what a seat has left, counted
   from what the view says was left at the server's time (`clock.server_time`)
   plus the time the caller itself measured since it received the view (a
   monotonic clock, such as `performance.now()`), so a table counts down
   without trusting its own wall clock. */

/** @typedef {import("./types.js").Schemas["GameView"]} GameView */

/**
 * What `seat` has left, in ms, `elapsedMs` after `view` was received: a
 * running clock's time to its deadline (never below 0), a stopped one's
 * bank; `null` in a game without a clock or for a seat it does not list.
 * @param {GameView} view a game's view (GET /v1/games/{id})
 * @param {number} seat
 * @param {number} [elapsedMs] the caller's own measure of the time since the view arrived
 * @returns {number | null}
 */
export function clockLeft(view, seat, elapsedMs = 0) {
  const clock = view.clock;
  const entry = clock ? clock.seats.find((s) => s.seat === seat) : undefined;
  if (!entry) return null;
  if (entry.running && typeof entry.left_ms === "number" && view.status === "active") {
    return Math.max(0, entry.left_ms - elapsedMs);
  }
  return entry.bank_ms;
}
