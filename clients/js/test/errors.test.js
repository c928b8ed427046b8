/* Problems to typed errors: by status, refined by code and by what was
   asked (a move); Retry-After read in seconds or as a date. */
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  BadRequest, Conflict, Forbidden, GameOver, MoveRefused, NotFound, NotYourTurn, RateLimited, RefereeProblem,
  Unauthorized, Unavailable, Unprocessable, VersionConflict, problemFor, retryAfterSeconds,
} from "../src/index.js";

/** @param {number} status @param {Record<string, unknown>} [more] */
function body(status, more = {}) {
  return { type: "about:blank", title: "t", status, code: "c", detail: "d", ...more };
}

test("each status has its class, and every class is a RefereeProblem and an Error", () => {
  /** @type {Array<[number, Function]>} */
  const cases = [[400, BadRequest], [401, Unauthorized], [403, Forbidden], [404, NotFound], [409, Conflict],
                 [410, GameOver], [422, Unprocessable], [429, RateLimited], [503, Unavailable],
                 [418, RefereeProblem], [500, RefereeProblem]];
  for (const [status, Kind] of cases) {
    const error = problemFor(status, body(status));
    assert.equal(error.constructor, Kind, String(status));
    assert.ok(error instanceof RefereeProblem && error instanceof Error);
    assert.equal(error.name, Kind.name);
    assert.equal(error.status, status);
    assert.deepEqual([error.code, error.title, error.detail, error.type], ["c", "t", "d", "about:blank"]);
  }
});

test("a move's 422 is MoveRefused with its rule, its 403 NotYourTurn; a reused key is neither", () => {
  const refused = problemFor(422, body(422, { code: "no_saloon_die", rule: "D52" }), { move: true });
  assert.ok(refused instanceof MoveRefused && refused instanceof Unprocessable);
  assert.equal(refused.rule, "D52");
  assert.ok(problemFor(403, body(403, { rule: "D73" }), { move: true }) instanceof NotYourTurn);
  const reused = problemFor(422, body(422, { code: "idempotency_key_reused" }), { move: true });
  assert.ok(reused instanceof Unprocessable && !(reused instanceof MoveRefused));
  assert.ok(!(problemFor(422, body(422)) instanceof MoveRefused));
  assert.ok(!(problemFor(403, body(403)) instanceof NotYourTurn));
});

test("409 version_conflict is VersionConflict with the current version", () => {
  const conflict = problemFor(409, body(409, { code: "version_conflict", current_version: 7 }));
  assert.ok(conflict instanceof VersionConflict && conflict instanceof Conflict);
  assert.equal(conflict instanceof VersionConflict && conflict.currentVersion, 7);
});

test("retryAfter: the header's, else the body's, else null", () => {
  assert.equal(problemFor(429, body(429, { retry_after: 3 }), { retryAfter: 5 }).retryAfter, 5);
  assert.equal(problemFor(429, body(429, { retry_after: 3 })).retryAfter, 3);
  assert.equal(problemFor(429, body(429)).retryAfter, null);
  assert.equal(problemFor(404, body(404)).rule, null);
});

test("Retry-After: delta-seconds, an HTTP date from now, or nothing", () => {
  assert.equal(retryAfterSeconds("2"), 2);
  assert.equal(retryAfterSeconds(" 1.5 "), 1.5);
  assert.equal(retryAfterSeconds(null), null);
  assert.equal(retryAfterSeconds("soon"), null);
  const now = Date.parse("Sat, 05 Dec 2026 12:00:00 GMT");
  assert.equal(retryAfterSeconds("Sat, 05 Dec 2026 12:00:30 GMT", now), 30);
  assert.equal(retryAfterSeconds("Sat, 05 Dec 2026 11:00:00 GMT", now), 0);
});
