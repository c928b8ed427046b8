/* `referee.games`: /v1/games and everything under it. */
import { every } from "./pages.js";
import { StreamUnopenable, resuming } from "./resume.js";

/** @typedef {import("./transport.js").Http} Http */
/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./types.js").Schemas} Schemas */
/** @typedef {Schemas["Event"]} GameEvent */
/**
 * @template {keyof import("./types.js").Operations} Op
 * @typedef {import("./types.js").Ok<Op>} Ok
 */
/**
 * @template {keyof import("./types.js").Operations} Op
 * @typedef {import("./types.js").Query<Op>} Query
 */

/** the long-poll's wait (seconds) when the stream falls back to it (the server's most is 30) */
export const FALLBACK_WAIT_S = 25;

/** A version 4 UUID, from `crypto.getRandomValues` (a page served over plain http has no `randomUUID`). */
export function uuid4() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** @param {string} id */
function at(id) {
  return `/v1/games/${encodeURIComponent(id)}`;
}

export class Games {
  /**
   * @param {Http} http
   * @param {(options?: Options) => string | null} token the token of a call: its own, else the client's default
   */
  constructor(http, token) {
    this.http = http;
    this.token = token;
  }

  /**
   * `POST /v1/games`: a new game. The answer holds each seat's token (and
   * the owner's), shown once. Not retried once sent: a retry could make two games.
   * @param {import("./types.js").CreateGame} body
   * @param {Options} [options]
   * @returns {Promise<Ok<"createGame">>}
   */
  create(body, options = {}) {
    return this.http.json("POST", "/v1/games", { json: body, token: this.token(options), signal: options.signal,
                                                  safe: false });
  }

  /**
   * `GET /v1/games`: one page of games, newest first; `query.cursor` is the `next` of the page before.
   * @param {Query<"listGames">} [query]
   * @param {Options} [options]
   * @returns {Promise<Ok<"listGames">>}
   */
  list(query = {}, options = {}) {
    return this.http.json("GET", "/v1/games", { query, signal: options.signal });
  }

  /**
   * Every game of {@link list}, page after page.
   * @param {Omit<Query<"listGames">, "cursor">} [query]
   * @param {Options} [options]
   * @returns {AsyncGenerator<Ok<"listGames">["games"][number], void, undefined>}
   */
  all(query = {}, options = {}) {
    return every((cursor) => this.list({ ...query, cursor: cursor ?? undefined }, options), "games");
  }

  /**
   * `GET /v1/games/{id}`: the game as the token's seat sees it (a spectator's view without one).
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"viewGame">>}
   */
  view(id, options = {}) {
    return this.http.json("GET", at(id), { token: this.token(options), signal: options.signal });
  }

  /**
   * `POST /v1/games/{id}/moves`: play `move` (an entry of `legal_moves`, as is).
   * It carries an Idempotency-Key (a fresh one unless given), so it is
   * retried safely: a retry gets the first answer back and plays nothing
   * twice. `expectedVersion`: the version the move was chosen at; the move is
   * refused (VersionConflict) if the game moved on since (none: judged
   * against whatever the game is then). Throws MoveRefused (422, with `rule`),
   * NotYourTurn (403), VersionConflict (409), GameOver (410).
   * @param {string} id
   * @param {Schemas["Move"]} move
   * @param {Options & {idempotencyKey?: string, expectedVersion?: number | null}} [options]
   * @returns {Promise<Ok<"submitMove">>}
   */
  move(id, move, options = {}) {
    /** @type {Schemas["MoveRequest"]} */
    const body = { move };
    if (options.expectedVersion !== undefined && options.expectedVersion !== null) {
      body.expected_version = options.expectedVersion;
    }
    return this.http.json("POST", `${at(id)}/moves`, {
      json: body, token: this.token(options), signal: options.signal, move: true,
      headers: { "Idempotency-Key": options.idempotencyKey ?? uuid4() },
    });
  }

  /**
   * `GET /v1/games/{id}/deliveries`: how the game-end webhook (option
   * `callback_url`) went: each attempt's time, status and error, and when it
   * was delivered. The creator's only: `ownerToken` is its `owner_token`.
   * @param {string} id
   * @param {Options & {ownerToken: string}} options
   * @returns {Promise<Ok<"gameDeliveries">>}
   */
  deliveries(id, options) {
    return this.http.json("GET", `${at(id)}/deliveries`, { token: options.ownerToken, signal: options.signal });
  }

  /**
   * `POST /v1/games/{id}/seats/{seat}/claim`: an open seat's token, to the
   * first claimant only (later: Conflict `seat_taken`). Not retried once sent.
   * @param {string} id
   * @param {number} seat
   * @param {string} name
   * @param {Options} [options]
   * @returns {Promise<Ok<"claimSeat">>}
   */
  claim(id, seat, name, options = {}) {
    return this.http.json("POST", `${at(id)}/seats/${seat}/claim`, { json: { name }, signal: options.signal,
                                                                     safe: false });
  }

  /**
   * `POST /v1/games/{id}/seats/{seat}/token`: a person's seat's new token; the
   * old one stops working at once. `ownerToken`: the creator's `owner_token`
   * for a seat it seated, or a claimant's own current token.
   * @param {string} id
   * @param {number} seat
   * @param {Options & {ownerToken?: string}} [options]
   * @returns {Promise<Ok<"reissueToken">>}
   */
  reissue(id, seat, options = {}) {
    return this.http.json("POST", `${at(id)}/seats/${seat}/token`, {
      token: options.ownerToken ?? this.token(options), signal: options.signal, safe: false,
    });
  }

  /**
   * `POST /v1/games/{id}/chat`: say `text` at the table (docs/chat.md) as the
   * token's seat (none: a spectator, where the creator opened the chat to
   * everyone). Plain text, one line, at most 280 characters; 5 messages in
   * 10 s a seat. Not retried once sent: a retry could say it twice.
   * @param {string} id
   * @param {string} text
   * @param {Options} [options]
   * @returns {Promise<Ok<"postChat">>}
   */
  chat(id, text, options = {}) {
    return this.http.json("POST", `${at(id)}/chat`, {
      json: { text }, token: this.token(options), signal: options.signal, safe: false,
    });
  }

  /**
   * `GET /v1/games/{id}/chat`: the table's messages after event `after`,
   * each with its opening `{text, salt}` (null when hidden, but to the admin).
   * @param {string} id
   * @param {Options & {after?: number}} [options]
   * @returns {Promise<Ok<"listChat">>}
   */
  chatMessages(id, options = {}) {
    return this.http.json("GET", `${at(id)}/chat`, {
      token: this.token(options), signal: options.signal, query: { after: options.after ?? 0 },
    });
  }

  /**
   * `POST /v1/games/{id}/chat/{seq}/hide`: hide message `seq`'s text, as the
   * game's creator (`ownerToken`) or the admin; its commitment stays in the chain.
   * @param {string} id
   * @param {number} seq
   * @param {Options & {ownerToken?: string}} [options]
   * @returns {Promise<Ok<"hideChat">>}
   */
  hideChat(id, seq, options = {}) {
    return this.http.json("POST", `${at(id)}/chat/${seq}/hide`, {
      token: options.ownerToken ?? this.token(options), signal: options.signal,
    });
  }

  /**
   * `POST /v1/games/{id}/rematch`: the next game of a finished game (the same
   * ruleset, options and bots, the seats rotated one place); every ask answers
   * with the same game. With a person's seat token of the finished game (the
   * client's, or `options.token`) it also takes that person's new `seat` and
   * shows its `token` that once (null after); with the creator's `owner_token`,
   * the game only.
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"rematch">>}
   */
  rematch(id, options = {}) {
    return this.http.json("POST", `${at(id)}/rematch`, { token: this.token(options), signal: options.signal,
                                                         safe: false });
  }

  /**
   * `GET /v1/series/{id}`: a series' running score and its games (its id is
   * its first game's).
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"getSeries">>}
   */
  series(id, options = {}) {
    return this.http.json("GET", `/v1/series/${encodeURIComponent(id)}`, { signal: options.signal });
  }

  /**
   * `GET /v1/games/{id}/events`: the events after version `after`, as the
   * token's seat may see them; with `wait` (seconds, at most 30) it
   * long-polls: it answers as soon as there is one, or after `wait` with none.
   * @param {string} id
   * @param {Options & {after?: number, wait?: number}} [options]
   * @returns {Promise<Ok<"listEvents">>}
   */
  events(id, options = {}) {
    return this.http.json("GET", `${at(id)}/events`, {
      token: this.token(options), signal: options.signal,
      query: { after: options.after ?? 0, wait: options.wait || undefined },
    });
  }

  /**
   * `GET /v1/games/{id}/events/stream`: every event after `after`, live,
   * until the game is over. The server ends a stream after a minute and a
   * stream may drop: it is opened again with Last-Event-ID (the last event
   * yielded), so each event comes once and in order. When no stream can be
   * had (a proxy that does not pass one, the network), it goes on with
   * long-polls of the events. Leave the loop, or abort `signal`, to hang up.
   * @param {string} id
   * @param {Options & {after?: number}} [options]
   * @returns {AsyncGenerator<GameEvent, void, undefined>}
   */
  async *stream(id, options = {}) {
    const token = this.token(options);
    const { signal } = options;
    let last = options.after ?? 0;
    try {
      yield* resuming(this.http, `${at(id)}/events/stream`, {
        token, signal, query: { after: last }, firstId: null, lastId: () => String(last),
        accept: (sse) => {
          if (sse.event === "end") return { over: true };
          if (!sse.data) return {};
          const event = /** @type {GameEvent} */ (JSON.parse(sse.data));
          if (event.seq <= last) return {}; // sent already (a resume may overlap)
          last = event.seq;
          return { item: event };
        },
      });
      return;
    } catch (error) {
      if (!(error instanceof StreamUnopenable)) throw error;
    }
    for (;;) { // the long-poll fallback
      const page = await this.events(id, { token, signal, after: last, wait: FALLBACK_WAIT_S });
      for (const event of page.events) {
        signal?.throwIfAborted();
        if (event.seq <= last) continue;
        last = event.seq;
        yield event;
      }
      if (page.status !== "active" && last >= page.version) return;
    }
  }

  /**
   * `GET /v1/games/{id}/replay`: the spectator view at `version` (default
   * the latest); once the game is over, every seat's view too.
   * @param {string} id
   * @param {Options & {version?: number}} [options]
   * @returns {Promise<Ok<"replayGame">>}
   */
  replay(id, options = {}) {
    return this.http.json("GET", `${at(id)}/replay`, { query: { version: options.version }, signal: options.signal });
  }

  /**
   * `GET /v1/games/{id}/broadcast`: the delayed omniscient view of a game
   * whose creator opted in (option `spectator_omniscient`): the spectator
   * view at the delayed version and every seat's view there (`views`; empty
   * inside the delay). Asked as a spectator, never with a seat's token (403
   * `broadcast_not_for_seats`); 403 `broadcast_not_offered` without the option.
   * @param {string} id
   * @param {{signal?: AbortSignal}} [options]
   * @returns {Promise<Ok<"broadcastGame">>}
   */
  broadcast(id, options = {}) {
    return this.http.json("GET", `${at(id)}/broadcast`, { signal: options.signal });
  }

  /**
   * `GET /v1/games/{id}/log` as served: NDJSON text, the bytes a verifier
   * hashes (public once the game is over; before, the admin token only).
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<string>}
   */
  async logText(id, options = {}) {
    return (await this.http.request("GET", `${at(id)}/log`, { token: this.token(options),
                                                               signal: options.signal })).text();
  }

  /**
   * The log's records, parsed: the header (with its hash) first, then one
   * event envelope a line.
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Record<string, any>[]>}
   */
  async log(id, options = {}) {
    const text = await this.logText(id, options);
    return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
  }

  /**
   * `GET /v1/games/{id}/audit`: the referee's verification of the game's
   * log; an active game's only with the admin token.
   * @param {string} id
   * @param {Options} [options]
   * @returns {Promise<Ok<"auditGame">>}
   */
  audit(id, options = {}) {
    return this.http.json("GET", `${at(id)}/audit`, { token: this.token(options), signal: options.signal });
  }
}
