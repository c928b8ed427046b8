/* `referee.bots`: webhook and outbound bots, and an outbound bot's turns.
   A bot's `token` is its secret (shown once, at registration). */
import { every } from "./pages.js";
import { resuming } from "./resume.js";

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
/**
 * One turn of an outbound bot: `body` is the turn as JSON text (what
 * `signature` covers); `id` is its place on the bot's stream.
 * @typedef {{ id: string, delivery: string, timestamp: number, signature: string, body: string }} Turn
 */

/** @param {string} id */
function at(id) {
  return `/v1/bots/${encodeURIComponent(id)}`;
}

/**
 * A turn event id (`<ms>-<n>`, or `0`) as numbers to order by.
 * @param {string} id
 * @returns {number[]}
 */
function order(id) {
  return id.split("-").map((part) => Number(part) || 0);
}

/**
 * Whether turn id `a` comes after `b`.
 * @param {string} a
 * @param {string} b
 */
export function after(a, b) {
  const [x, y] = [order(a), order(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  }
  return false;
}

export class Bots {
  /**
   * @param {Http} http
   * @param {(options?: Options) => string | null} token
   */
  constructor(http, token) {
    this.http = http;
    this.token = token;
  }

  /**
   * `POST /v1/bots`: register a webhook bot (`url`) or an outbound one (no
   * `url`: it connects for its turns). The answer's `secret` is shown once.
   * Not retried once sent.
   * @param {RequestBody<"registerBot">} body
   * @param {Options} [options]
   * @returns {Promise<Ok<"registerBot">>}
   */
  register(body, options = {}) {
    return this.http.json("POST", "/v1/bots", { json: body, token: this.token(options), signal: options.signal,
                                                 safe: false });
  }

  /**
   * `GET /v1/bots`: one page of registered bots, newest first (never a URL or a secret).
   * @param {Query<"listBots">} [query]
   * @param {Options} [options]
   * @returns {Promise<Ok<"listBots">>}
   */
  list(query = {}, options = {}) {
    return this.http.json("GET", "/v1/bots", { query, signal: options.signal });
  }

  /**
   * Every bot of {@link list}, page after page.
   * @param {Omit<Query<"listBots">, "cursor">} [query]
   * @param {Options} [options]
   * @returns {AsyncGenerator<Ok<"listBots">["bots"][number], void, undefined>}
   */
  all(query = {}, options = {}) {
    return every((cursor) => this.list({ ...query, cursor: cursor ?? undefined }, options), "bots");
  }

  /**
   * `GET /v1/bots/{id}`: the bot, for its owner (`token`: the secret).
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"getBot">>}
   */
  get(id, options = {}) {
    return this.http.json("GET", at(id), { token: this.token(options), signal: options.signal });
  }

  /**
   * `DELETE /v1/bots/{id}`: the owner (`token`: the secret) deletes the bot.
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"deleteBot">>}
   */
  delete(id, options = {}) {
    return this.http.json("DELETE", at(id), { token: this.token(options), signal: options.signal });
  }

  /**
   * `GET /v1/bots/{id}/turns`: an outbound bot's open turns, in every game it
   * plays, as they come, for as long as the loop runs (reconnecting with
   * Last-Event-ID each time the server ends a stream). Check a turn's
   * `signature` with the secret; answer it with {@link answer}.
   * @param {string} id
   * @param {Options & {after?: string}} [options] `after`: the id of the last turn seen
   * @returns {AsyncGenerator<Turn, void, undefined>}
   */
  turns(id, options = {}) {
    let last = options.after ?? null;
    return resuming(this.http, `${at(id)}/turns`, {
      token: this.token(options), signal: options.signal, query: undefined, firstId: last, lastId: () => last,
      accept: (sse) => {
        if (!sse.data || (sse.event !== "turn" && sse.event !== "")) return {};
        if (last !== null && sse.id && !after(sse.id, last)) return {};
        last = sse.id || last;
        return { item: { id: sse.id, ...JSON.parse(sse.data) } };
      },
    });
  }

  /**
   * `POST /v1/bots/{id}/turns/{delivery}`: an outbound bot's answer to one
   * turn. A turn takes one answer, so a retry cannot play twice (after a
   * lost answer the retry may get Conflict `turn_closed`).
   * @param {string} id
   * @param {string} delivery
   * @param {RequestBody<"answerTurn">["move"]} move
   * @param {Options} [options]
   * @returns {Promise<Ok<"answerTurn">>}
   */
  answer(id, delivery, move, options = {}) {
    return this.http.json("POST", `${at(id)}/turns/${encodeURIComponent(delivery)}`, {
      json: { move }, token: this.token(options), signal: options.signal, safe: true,
    });
  }
}
