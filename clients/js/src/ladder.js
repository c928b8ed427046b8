/* `referee.ladder`: the bots' lasting ratings (issue 42, docs/ladder.md):
   every ladder, one ladder's table a page at a time, a bot's profile, and a
   ladder's matchmaking pool. Public reads; putting a bot in a pool or taking
   it out takes the bot's secret. */
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
/** @typedef {Ok<"getLadder">["items"][number]} LadderRow one bot's row of a ladder's table */
/** @typedef {Ok<"getBotProfile">} BotProfile */
/**
 * One bot in a ladder's pool: `status` is `waiting` (a game slot free: in
 * the queue), `playing` (every slot taken) or `paused` (`paused_reason`
 * says why in words: it kept timing out or answering invalidly); the
 * built-in bots (`bot.builtin`) are in every pool.
 * @typedef {Ok<"getPool">["entries"][number]} PoolEntry
 */
/**
 * A ladder's matchmaking pool (`GET /v1/ladder/{key}/pool`): the table
 * sizes it deals, its bots, and its stats (registered bots waiting for a
 * game, games being played, the median wait for a game in ms, games started
 * a minute over the last five).
 * @typedef {Ok<"getPool">} Pool
 */

/** @param {string} key */
function at(key) {
  return `/v1/ladder/${encodeURIComponent(key)}`;
}

export class Ladder {
  /**
   * @param {Http} http
   * @param {(options?: Options) => string | null} token
   */
  constructor(http, token) {
    this.http = http;
    this.token = token;
  }

  /**
   * `GET /v1/ladder`: every ladder (one a ruleset, and `bang:3`), with its
   * bots and rated games.
   * @param {Options} [options]
   * @returns {Promise<Ok<"listLadders">>}
   */
  ladders(options = {}) {
    return this.http.json("GET", "/v1/ladder", { signal: options.signal });
  }

  /**
   * `GET /v1/ladder/{key}`: one page of a ladder's table, ranked by the
   * OpenSkill ordinal; `next_cursor` starts the next page (null: the last).
   * 404 `unknown_ladder`.
   * @param {string} key a ladder's key: a ruleset's name, or `bang:3`
   * @param {Query<"getLadder">} [query] `cursor`, `limit` (1-200, default 50)
   * @param {Options} [options]
   * @returns {Promise<Ok<"getLadder">>}
   */
  ladder(key, query = {}, options = {}) {
    return this.http.json("GET", at(key), { query, signal: options.signal });
  }

  /**
   * Every row of a ladder's table, page after page, best first.
   * @param {string} key
   * @param {Omit<Query<"getLadder">, "cursor">} [query]
   * @param {Options} [options]
   * @returns {AsyncGenerator<LadderRow, void, undefined>}
   */
  rows(key, query = {}, options = {}) {
    return every((cursor) => this.ladder(key, { ...query, cursor: cursor ?? undefined }, options), "items",
                 "next_cursor");
  }

  /**
   * `GET /v1/bots/{id}/profile`: a bot's public profile — its record, its
   * standing in each ladder with its rating after every rated game
   * (`history`), and its last recorded games, newest first. A built-in bot
   * by its name (`random`, `heuristic`). 404 `bot_not_found`.
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<BotProfile>}
   */
  botProfile(id, options = {}) {
    return this.http.json("GET", `/v1/bots/${encodeURIComponent(id)}/profile`, { signal: options.signal });
  }

  /**
   * `GET /v1/ladder/{key}/pool`: the ladder's matchmaking pool, its bots
   * (each one's status) and its stats.
   * @param {string} key
   * @param {Options} [options]
   * @returns {Promise<Pool>}
   */
  pool(key, options = {}) {
    return this.http.json("GET", `${at(key)}/pool`, { signal: options.signal });
  }

  /**
   * `PUT /v1/ladder/{key}/pool/{botId}` with the bot's secret as `token`:
   * the bot goes in the pool (again: its entry is updated, a paused bot
   * plays again); `games_at_once` its games at once, `same_table` the seats
   * of one table it may hold.
   * @param {string} key
   * @param {string} botId
   * @param {RequestBody<"putInPool">} [body]
   * @param {Options} [options]
   * @returns {Promise<Ok<"putInPool">>}
   */
  join(key, botId, body = {}, options = {}) {
    return this.http.json("PUT", `${at(key)}/pool/${encodeURIComponent(botId)}`,
      { json: body, token: this.token(options), signal: options.signal, safe: true });  /* twice: the same entry */
  }

  /**
   * `DELETE /v1/ladder/{key}/pool/{botId}` with the bot's secret as `token`:
   * out of the pool; its games being played finish.
   * @param {string} key
   * @param {string} botId
   * @param {Options} [options]
   * @returns {Promise<Ok<"leavePool">>}
   */
  leave(key, botId, options = {}) {
    return this.http.json("DELETE", `${at(key)}/pool/${encodeURIComponent(botId)}`,
      { token: this.token(options), signal: options.signal });
  }
}
