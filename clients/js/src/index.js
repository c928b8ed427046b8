/* A client of the Referee v1 API: a plain ES module with no build step and
   no dependencies, for browsers and node >= 20 (it uses the global `fetch`).
   One method per route of openapi.yaml; every non-2xx answer is thrown as a
   RefereeProblem or the subclass that names it; 429 and 503 are retried after
   Retry-After for the requests that are safe to send twice (moves are, by
   their Idempotency-Key); a game's events stream over SSE with resume, or
   by long-poll where no stream can be had.

     import { Referee, MoveRefused } from "@referee/client";
     const referee = new Referee({ baseUrl: "http://127.0.0.1:8000" });
     const game = await referee.games.create({ ruleset: "bang-dice", players: 3 });
*/
import { Archive } from "./archive.js";
import { Bots } from "./bots.js";
import { Games } from "./games.js";
import { Ladder } from "./ladder.js";
import { Rulesets } from "./rulesets.js";
import { Tournaments } from "./tournaments.js";
import { Transparency } from "./transparency.js";
import { DEFAULT_RETRY, Http, sleep } from "./transport.js";

export {
  BadRequest, Conflict, Forbidden, GameOver, MoveRefused, NotFound, NotYourTurn, RateLimited, RefereeProblem,
  Unauthorized, Unavailable, Unprocessable, VersionConflict, problemFor, retryAfterSeconds,
} from "./errors.js";
export { StreamUnopenable } from "./resume.js";
export { SseParser, readEvents } from "./sse.js";
export { DEFAULT_RETRY } from "./transport.js";
export { uuid4 } from "./games.js";
export { clockLeft } from "./clocks.js";

/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./transport.js").RetryPolicy} RetryPolicy */
/** @typedef {import("./transport.js").Sleep} Sleep */
/**
 * @template {keyof import("./types.js").Operations} Op
 * @typedef {import("./types.js").Ok<Op>} Ok
 */

/**
 * @typedef {object} RefereeOptions
 * @property {string} [baseUrl] the referee's URL; "" (the default): the page's own origin
 * @property {string | null} [token] the token a call sends unless it gives its own
 * @property {Partial<RetryPolicy>} [retry] when and how long to retry ({attempts: 1}: never)
 * @property {typeof globalThis.fetch} [fetch] the fetch to use (default: the global one)
 * @property {Sleep} [sleep] how to wait between tries (default: a timer)
 */

/** A client of one referee. */
export class Referee {
  /** @param {RefereeOptions} [options] */
  constructor(options = {}) {
    const defaultToken = options.token ?? null;
    const http = new Http({
      baseUrl: options.baseUrl ?? "", retry: { ...DEFAULT_RETRY, ...options.retry },
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)), sleep: options.sleep ?? sleep,
    });
    /** @type {(call?: Options) => string | null} */
    const token = (call = {}) => (call.token === undefined ? defaultToken : call.token);
    this.http = http;
    this.games = new Games(http, token);
    this.bots = new Bots(http, token);
    this.tournaments = new Tournaments(http, token);
    this.ladder = new Ladder(http, token);
    this.rulesets = new Rulesets(http);
    this.transparency = new Transparency(http);
    this.archive = new Archive(http);
  }

  /**
   * `GET /v1/keys`: the referee's public signing keys (a JWK set), which verify receipts and final heads.
   * @param {Options} [options]
   * @returns {Promise<Ok<"signingKeys">>}
   */
  keys(options = {}) {
    return this.http.json("GET", "/v1/keys", { signal: options.signal });
  }

  /**
   * `GET /health`: alive, and Redis answers (else Unavailable).
   * @param {Options} [options]
   * @returns {Promise<Ok<"health">>}
   */
  health(options = {}) {
    return this.http.json("GET", "/health", { signal: options.signal });
  }

  /**
   * `GET /metrics`: the Prometheus text.
   * @param {Options} [options]
   * @returns {Promise<string>}
   */
  async metrics(options = {}) {
    return (await this.http.request("GET", "/metrics", { signal: options.signal })).text();
  }

  /**
   * `GET /openapi.yaml`: the contract, as YAML text.
   * @param {Options} [options]
   * @returns {Promise<string>}
   */
  async openapi(options = {}) {
    return (await this.http.request("GET", "/openapi.yaml", { signal: options.signal })).text();
  }
}
