/* The referee's problems (RFC 9457, application/problem+json) as typed
   exceptions, so a caller catches exactly what it can handle:

     try { await referee.games.move(id, move, { token }); }
     catch (e) {
       if (e instanceof VersionConflict) { ... look again ... }
       else if (e instanceof MoveRefused) { show(e.rule, e.detail); }
       else throw e;
     }
*/

/** @typedef {import("./schema.js").components["schemas"]["Problem"]} Problem */

/**
 * A problem document as sent, or a stand-in `{code: "http_<status>", detail}`
 * when the answer was not one (a proxy's page, say).
 * @typedef {Partial<Problem> & Record<string, unknown>} ProblemBody
 */

/** @param {unknown} value @returns {string | null} */
function text(value) {
  return typeof value === "string" ? value : null;
}

/** Any answer of status >= 400: the base of every typed error. */
export class RefereeProblem extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {ProblemBody} body the problem document (or the stand-in)
   * @param {{retryAfter?: number | null, method?: string, url?: string, fromReferee?: boolean}} [extra]
   *   retryAfter: the Retry-After header (seconds), else the body's `retry_after`;
   *   fromReferee: the body was a problem document (false: a stand-in for another answer)
   */
  constructor(status, body, extra = {}) {
    const code = text(body.code);
    const detail = text(body.detail);
    super(`${status} ${code}: ${detail}`);
    this.name = new.target.name;
    this.status = status;
    this.body = body;
    this.code = code;
    this.detail = detail;
    this.title = text(body.title);
    this.type = text(body.type);
    /** the rule ID broken (R…, FO…, D…, F…), where a rule was */
    this.rule = text(body.rule) || null;
    const fromBody = typeof body.retry_after === "number" ? body.retry_after : null;
    /** seconds to wait before asking again (429, 503), when the referee said */
    this.retryAfter = extra.retryAfter ?? fromBody;
    this.method = extra.method ?? null;
    this.url = extra.url ?? null;
    this.fromReferee = extra.fromReferee ?? true;
  }
}

/** 400: the request is malformed (bad JSON, a move of no known shape, a token in the URL …). */
export class BadRequest extends RefereeProblem {}
/** 401: no credential, or one that does not authenticate (`token_required`, `bad_token` …). */
export class Unauthorized extends RefereeProblem {}
/** 403: authenticated but not allowed (`log_not_public`, `seat_belongs_to_claimant` …). */
export class Forbidden extends RefereeProblem {}
/** 403 to a move: the referee does not await this seat now (`not_your_turn` …; `rule` names the turn rule). */
export class NotYourTurn extends Forbidden {}
/** 404: no such game, bot, tournament, ruleset or rule. */
export class NotFound extends RefereeProblem {}
/** 409: the request conflicts with the resource's state (`seat_taken`, `turn_closed` …). */
export class Conflict extends RefereeProblem {}
/** 409 `version_conflict`: the game moved on since `expected_version`; look again, then decide. */
export class VersionConflict extends Conflict {
  /** @returns {number | null} the game's version when the move was refused */
  get currentVersion() {
    const found = this.body.current_version;
    return typeof found === "number" ? found : null;
  }
}
/** 410 `game_over`: the game is finished (or aborted); nothing is played. */
export class GameOver extends RefereeProblem {}
/** 422: well formed but refused (an unknown ruleset, bad options, a reused idempotency key …). */
export class Unprocessable extends RefereeProblem {}
/** 422 to a move: the rules refuse it; `rule` names the rule broken and `detail` cites it. */
export class MoveRefused extends Unprocessable {}
/** 429 (`rate_limited`, `too_many_streams`, a quota): wait `retryAfter` seconds. Safe requests were retried first. */
export class RateLimited extends RefereeProblem {}
/** 503 (`redis_unavailable`, `streams_full`, `tournaments_busy`): wait `retryAfter` seconds. Safe requests were retried first. */
export class Unavailable extends RefereeProblem {}

/** @type {Record<number, typeof RefereeProblem>} */
const BY_STATUS = {
  400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict, 410: GameOver,
  422: Unprocessable, 429: RateLimited, 503: Unavailable,
};

/**
 * The typed error of a problem answer: by status, refined by code, and for a
 * move a 403 is NotYourTurn and a 422 MoveRefused (unless the idempotency key
 * was reused, which is the caller's slip, not the rules').
 * @param {number} status
 * @param {ProblemBody} body
 * @param {{retryAfter?: number | null, method?: string, url?: string, fromReferee?: boolean, move?: boolean}} [extra]
 * @returns {RefereeProblem}
 */
export function problemFor(status, body, extra = {}) {
  let Kind = BY_STATUS[status] ?? RefereeProblem;
  if (status === 409 && body.code === "version_conflict") Kind = VersionConflict;
  else if (extra.move && status === 403) Kind = NotYourTurn;
  else if (extra.move && status === 422 && body.code !== "idempotency_key_reused") Kind = MoveRefused;
  return new Kind(status, body, extra);
}

/**
 * `Retry-After` in seconds (the referee sends delta-seconds; an HTTP date is
 * read too, for a proxy's sake); null when absent or unreadable.
 * @param {string | null} value
 * @param {number} [now] the time (ms since the epoch) a date is counted from
 * @returns {number | null}
 */
export function retryAfterSeconds(value, now = Date.now()) {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}
