/* Server-Sent Events resumed with Last-Event-ID, shared by a game's event
   stream and an outbound bot's turns. The referee ends a stream after a
   minute and a stream may drop: the next connection sends the last event's
   id as Last-Event-ID, after the server's `retry:` pause (or a backoff after
   a drop), so each event is yielded once and in order. */
import { RefereeProblem } from "./errors.js";
import { readEvents } from "./sse.js";

/** @typedef {import("./transport.js").Http} Http */
/** @typedef {import("./sse.js").SseEvent} SseEvent */

/** the pause before reconnecting a stream the server ended, unless it sent `retry:` */
export const DEFAULT_RECONNECT_MS = 500;

/**
 * The stream could not be had here (a network or proxy failure, an answer
 * that is not an event stream, drops in a row with no new event): the
 * referee did not refuse it, so another way to the same events may work.
 */
export class StreamUnopenable extends Error {
  /** @param {unknown} cause */
  constructor(cause) {
    super(`the event stream could not be opened: ${cause instanceof Error ? cause.message : String(cause)}`,
          { cause });
    this.name = "StreamUnopenable";
  }
}

/**
 * Whether opening failed for want of a stream rather than by the referee's
 * answer (a problem document: 401, 404 … say the same of any other way).
 * @param {unknown} error
 * @returns {boolean}
 */
function unopenable(error) {
  if (error instanceof RefereeProblem) return !error.fromReferee;
  return error instanceof TypeError;
}

/**
 * What `accept` makes of one event: the item to yield (if any), and whether the stream is over.
 * @template T
 * @typedef {{ item?: T, over?: boolean }} Accepted
 */

/**
 * @template T
 * @typedef {object} Resuming
 * @property {string | null | undefined} token
 * @property {Record<string, string | number> | undefined} query sent on the first connection only
 * @property {string | null} firstId the first connection's Last-Event-ID (null: none)
 * @property {() => string | null} lastId the id to resume from
 * @property {(event: SseEvent) => Accepted<T>} accept
 * @property {AbortSignal | undefined} signal
 */

/**
 * The items of the events at `path`, over as many connections as it takes.
 * Throws {@link StreamUnopenable} when a connection cannot be had (see
 * there), a problem when the referee refuses one.
 * @template T
 * @param {Http} http
 * @param {string} path
 * @param {Resuming<T>} options
 * @returns {AsyncGenerator<T, void, undefined>}
 */
export async function* resuming(http, path, { token, query, firstId, lastId, accept, signal }) {
  let resumed = false;
  let failures = 0;
  for (;;) {
    /** @type {Record<string, string>} */
    const headers = { Accept: "text/event-stream" };
    const resumeAt = resumed ? lastId() : firstId;
    if (resumeAt !== null) headers["Last-Event-ID"] = resumeAt;
    /** @type {Response} */
    let response;
    try {
      response = await http.request("GET", path, { token, query: resumed ? undefined : query, headers, signal });
    } catch (error) {
      throw unopenable(error) ? new StreamUnopenable(error) : error;
    }
    const kind = response.headers.get("Content-Type") ?? "";
    if (!response.body || !kind.startsWith("text/event-stream")) {
      await response.body?.cancel();
      throw new StreamUnopenable(new Error(`${path} answered ${response.status} ${kind || "without a type"}`));
    }
    let pause = DEFAULT_RECONNECT_MS;
    let progressed = false;
    try {
      for await (const event of readEvents(response.body)) {
        if (event.retry !== undefined) pause = event.retry;
        const { item, over } = accept(event);
        signal?.throwIfAborted(); // events read in one chunk with the abort: none after it
        if (item !== undefined) {
          progressed = true;
          failures = 0;
          yield item;
        }
        if (over) return;
      }
    } catch (error) {
      if (signal?.aborted || !(error instanceof TypeError)) throw error;
      failures = progressed ? 0 : failures + 1; // dropped mid-stream: resume where it broke
      if (failures >= Math.max(1, http.retry.attempts)) throw new StreamUnopenable(error);
      pause = http.delay(error, failures) * 1000;
    }
    resumed = true;
    await http.sleep(pause, signal);
  }
}
