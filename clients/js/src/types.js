/* The request and response types of every operation, read from the types
   openapi-typescript generates from openapi.yaml (schema.d.ts): a call's
   answer is typed as the contract's 2xx JSON for that operationId. Types
   only: nothing here runs. */

/** @typedef {import("./schema.js").operations} Operations */
/** @typedef {import("./schema.js").components["schemas"]} Schemas */

/**
 * The JSON of operation `Op`'s 2xx answer.
 * @template {keyof Operations} Op
 * @typedef {{ [S in keyof Operations[Op]["responses"]]: S extends 200 | 201 | 202
 *   ? Operations[Op]["responses"][S] extends { content: { "application/json": infer J } } ? J : never
 *   : never }[keyof Operations[Op]["responses"]]} Ok
 */

/**
 * The JSON body operation `Op` takes.
 * @template {keyof Operations} Op
 * @typedef {Operations[Op] extends { requestBody: { content: { "application/json": infer B } } } ? B
 *   : Operations[Op] extends { requestBody?: { content: { "application/json": infer B } } } ? B : never} RequestBody
 */

/**
 * The query parameters operation `Op` takes.
 * @template {keyof Operations} Op
 * @typedef {NonNullable<Operations[Op]["parameters"]["query"]>} Query
 */

/**
 * The body of `POST /v1/games` (openapi.yaml's CreateGame). Restated: the
 * generated type of CreateGame is `unknown`, as its `anyOf` of bare
 * `required` lists and the sizes' `oneOf` of constants are, for TypeScript;
 * the referee checks the sizes (422 `bad_player_count` …).
 * @typedef {object} CreateGame
 * @property {string} ruleset a ruleset's name (GET /v1/rulesets)
 * @property {number} [players] seats, all for people (or give `seats`)
 * @property {Array<{name?: string, bot?: string | null, bot_secret?: string, open?: boolean}>} [seats]
 *   each seat: a person's (`name`), a bot's (`bot`: random, heuristic or a registered bot's id) or open to claim
 * @property {Record<string, unknown>} [options] the ruleset's options, plus `turn_timeout_s`, `away_grace_s`, `away_bot` …
 * @property {string} [seed] makes the game reproducible (and custom)
 * @property {Record<string, unknown>} [setup] a scenario (the ruleset's setup schema; custom)
 */

/**
 * What every method takes last: `token` (a seat's, an owner's, a bot's
 * secret, a cancel token or the admin token) overrides the client's default;
 * `signal` aborts the call.
 * @typedef {object} Options
 * @property {string | null} [token]
 * @property {AbortSignal} [signal]
 */

export {};
