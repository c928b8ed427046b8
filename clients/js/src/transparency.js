/* `referee.transparency`: the referee's transparency log of finished games' signed
   final heads (docs/transparency.md): its signed checkpoint and the proofs of
   inclusion and consistency, which anyone can check (the watch page's tlog.js does). */

/** @typedef {import("./transport.js").Http} Http */
/** @typedef {import("./types.js").Options} Options */
/**
 * @template {keyof import("./types.js").Operations} Op
 * @typedef {import("./types.js").Ok<Op>} Ok
 */

export class Transparency {
  /** @param {Http} http */
  constructor(http) {
    this.http = http;
  }

  /**
   * `GET /v1/transparency/checkpoint`: the log's checkpoint now, a C2SP signed note (text).
   * @param {Options} [options]
   * @returns {Promise<string>}
   */
  async checkpoint(options = {}) {
    return (await this.http.request("GET", "/v1/transparency/checkpoint", { signal: options.signal })).text();
  }

  /**
   * `GET /v1/transparency/proof/inclusion`: a finished game's leaf and audit path in the tree of
   * `size` leaves (default: the log now), with that tree's signed checkpoint.
   * @param {string} game
   * @param {Options & {size?: number}} [options]
   * @returns {Promise<Ok<"transparencyInclusion">>}
   */
  inclusion(game, options = {}) {
    return this.http.json("GET", "/v1/transparency/proof/inclusion",
      { query: { game, size: options.size }, signal: options.signal });
  }

  /**
   * `GET /v1/transparency/proof/consistency`: the proof that the tree of `to` leaves (default:
   * the log now) extends the tree of `from` leaves, with the later tree's signed checkpoint.
   * @param {number} from
   * @param {Options & {to?: number}} [options]
   * @returns {Promise<Ok<"transparencyConsistency">>}
   */
  consistency(from, options = {}) {
    return this.http.json("GET", "/v1/transparency/proof/consistency",
      { query: { from, to: options.to }, signal: options.signal });
  }
}
