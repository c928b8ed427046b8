/* `referee.tournaments`: tournaments the workers play. */
import { every } from "./pages.js";

/** @typedef {import("./transport.js").Http} Http */
/** @typedef {import("./types.js").Options} Options */
/**
 * @template {keyof import("./types.js").Operations} Op
 * @typedef {import("./types.js").Ok<Op>} Ok
 */
/**
 * @template {keyof import("./types.js").Operations} Op
 * @typedef {import("./types.js").Query<Op>} Query
 */
/**
 * @template {keyof import("./types.js").Operations} Op
 * @typedef {import("./types.js").RequestBody<Op>} RequestBody
 */

/** @param {string} id */
function at(id) {
  return `/v1/tournaments/${encodeURIComponent(id)}`;
}

export class Tournaments {
  /**
   * @param {Http} http
   * @param {(options?: Options) => string | null} token
   */
  constructor(http, token) {
    this.http = http;
    this.token = token;
  }

  /**
   * `POST /v1/tournaments`: `games` games of `ruleset` between `entrants`;
   * the admin token lifts the caps. The answer's `cancel_token` is shown
   * once. Not retried once sent.
   * @param {RequestBody<"createTournament">} body
   * @param {Options} [options]
   * @returns {Promise<Ok<"createTournament">>}
   */
  create(body, options = {}) {
    return this.http.json("POST", "/v1/tournaments", { json: body, token: this.token(options),
                                                        signal: options.signal, safe: false });
  }

  /**
   * `GET /v1/tournaments`: one page of tournaments, newest first.
   * @param {Query<"listTournaments">} [query]
   * @param {Options} [options]
   * @returns {Promise<Ok<"listTournaments">>}
   */
  list(query = {}, options = {}) {
    return this.http.json("GET", "/v1/tournaments", { query, signal: options.signal });
  }

  /**
   * Every tournament of {@link list}, page after page.
   * @param {Omit<Query<"listTournaments">, "cursor">} [query]
   * @param {Options} [options]
   * @returns {AsyncGenerator<Ok<"listTournaments">["tournaments"][number], void, undefined>}
   */
  all(query = {}, options = {}) {
    return every((cursor) => this.list({ ...query, cursor: cursor ?? undefined }, options), "tournaments");
  }

  /**
   * `GET /v1/tournaments/{id}`: progress, every game and the standings.
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"getTournament">>}
   */
  get(id, options = {}) {
    return this.http.json("GET", at(id), { signal: options.signal });
  }

  /**
   * `DELETE /v1/tournaments/{id}` with the `cancel_token` (or the admin
   * token): no new game starts; cancelling twice changes nothing.
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"cancelTournament">>}
   */
  cancel(id, options = {}) {
    return this.http.json("DELETE", at(id), { token: this.token(options), signal: options.signal });
  }
}
