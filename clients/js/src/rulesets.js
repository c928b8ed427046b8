/* `referee.rulesets`: the rulesets the referee serves and the rules they cite. */

/** @typedef {import("./transport.js").Http} Http */
/** @typedef {import("./types.js").Options} Options */
/**
 * @template {keyof import("./types.js").Operations} Op
 * @typedef {import("./types.js").Ok<Op>} Ok
 */

/** @param {string} name */
function at(name) {
  return `/v1/rulesets/${encodeURIComponent(name)}`;
}

export class Rulesets {
  /** @param {Http} http */
  constructor(http) {
    this.http = http;
  }

  /**
   * `GET /v1/rulesets`: every ruleset, with the schemas of its options and moves.
   * @param {Options} [options]
   * @returns {Promise<Ok<"listRulesets">>} `{rulesets}`
   */
  list(options = {}) {
    return this.http.json("GET", "/v1/rulesets", { signal: options.signal });
  }

  /**
   * `GET /v1/rulesets/{name}`: one ruleset (NotFound if unknown).
   * @param {string} name
   * @param {Options} [options]
   * @returns {Promise<Ok<"getRuleset">>}
   */
  get(name, options = {}) {
    return this.http.json("GET", at(name), { signal: options.signal });
  }

  /**
   * `GET /v1/rulesets/{name}/catalogue`: every card, character, role, die,
   * face, symbol and map of the ruleset, the ids views and moves use, in English.
   * @param {string} name
   * @param {Options} [options]
   * @returns {Promise<Ok<"getCatalogue">>}
   */
  catalogue(name, options = {}) {
    return this.http.json("GET", `${at(name)}/catalogue`, { signal: options.signal });
  }

  /**
   * `GET /v1/rulesets/{name}/rules`: every rule ID the ruleset cites, with
   * its title and section, in document order.
   * @param {string} name
   * @param {Options} [options]
   * @returns {Promise<Ok<"listRules">>} `{ruleset, rules}`
   */
  rules(name, options = {}) {
    return this.http.json("GET", `${at(name)}/rules`, { signal: options.signal });
  }

  /**
   * `GET /v1/rulesets/{name}/rules/{id}`: one rule with its text — the rule a
   * MoveRefused's `rule` names (NotFound `unknown_rule` for an ID the ruleset has no entry for).
   * @param {string} name
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"getRule">>}
   */
  rule(name, id, options = {}) {
    return this.http.json("GET", `${at(name)}/rules/${encodeURIComponent(id)}`, { signal: options.signal });
  }
}
