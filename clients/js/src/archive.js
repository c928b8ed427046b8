/* `referee.archive`: finished games kept for good (issue 41, docs/archive.md). */
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

export class Archive {
  /** @param {Http} http */
  constructor(http) {
    this.http = http;
  }

  /**
   * `GET /v1/archive/games`: one page of archived games, the latest finished
   * first; filter by `ruleset`, a seat's name (`seat`), `bot`, `tournament`,
   * the result's reason (`result`) and when they finished (`from`, `to`: ms).
   * @param {Query<"searchArchive">} [query]
   * @param {Options} [options]
   * @returns {Promise<Ok<"searchArchive">>}
   */
  search(query = {}, options = {}) {
    return this.http.json("GET", "/v1/archive/games", { query, signal: options.signal });
  }

  /**
   * Every archived game of {@link search}, page after page.
   * @param {Omit<Query<"searchArchive">, "cursor">} [query]
   * @param {Options} [options]
   * @returns {AsyncGenerator<Ok<"searchArchive">["games"][number], void, undefined>}
   */
  all(query = {}, options = {}) {
    return every((cursor) => this.search({ ...query, cursor: cursor ?? undefined }, options), "games");
  }

  /**
   * `GET /v1/archive/export`: the matching games' logs, one after another,
   * as NDJSON text (`referee audit` checks it in one go).
   * @param {Query<"exportArchive">} [query]
   * @param {Options} [options]
   * @returns {Promise<string>}
   */
  async export(query = {}, options = {}) {
    return (await this.http.request("GET", "/v1/archive/export", { query, signal: options.signal })).text();
  }
}
