/* clockLeft (docs/clocks.md): a running clock counted down by the caller's
   own elapsed time from what was left at the server's time; a stopped one's
   bank; nothing for a game without a clock. Pure: no referee needed. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockLeft } from "../src/index.js";

/** @param {any} clock @returns {any} */
const viewWith = (clock) => ({ status: "active", clock });

test("a running clock counts down from left_ms by the caller's elapsed time, never below 0", () => {
  const view = viewWith({ bank_ms: 60000, increment_ms: 0, reaction_ms: 5000, server_time: 1000, seats: [
    { seat: 0, bank_ms: 60000, running: true, since: 0, reaction: false, deadline: 60000, left_ms: 59000 },
    { seat: 1, bank_ms: 42000, running: false }] });
  assert.equal(clockLeft(view, 0), 59000);
  assert.equal(clockLeft(view, 0, 1500), 57500);
  assert.equal(clockLeft(view, 0, 10 ** 6), 0);
  assert.equal(clockLeft(view, 1, 1500), 42000);
  assert.equal(clockLeft(view, 2), null);
});

test("a game without a clock has none", () => {
  assert.equal(clockLeft(/** @type {any} */ ({ status: "active" }), 0), null);
});
