/* The HTTP layer: one `fetch`, problem answers turned into typed errors, and
   retries of the requests that are safe to send twice (a GET or DELETE, or a
   POST carrying an Idempotency-Key, which is what a move carries): after a
   429 or 503 once `Retry-After` seconds have passed, after a lost connection
   once a growing backoff has. A request that is not safe is never sent twice. */
import { RefereeProblem, problemFor, retryAfterSeconds } from "./errors.js";

/**
 * When and how long to retry; `{attempts: 1}` never retries.
 * @typedef {object} RetryPolicy
 * @property {number} attempts tries in all (default 5)
 * @property {number} backoffS the first pause after a lost connection, doubled each time (default 0.25)
 * @property {number} backoffMaxS the longest such pause (default 8)
 * @property {number} retryAfterMaxS the longest `Retry-After` honoured; a longer one is cut to it (default 60)
 */

/** @type {RetryPolicy} */
export const DEFAULT_RETRY = Object.freeze({ attempts: 5, backoffS: 0.25, backoffMaxS: 8, retryAfterMaxS: 60 });

/** the statuses a safe request is retried on */
const RETRIED = new Set([429, 503]);

/**
 * How to wait: resolves after `ms`, or rejects with the signal's reason when it is aborted first.
 * @callback Sleep
 * @param {number} ms
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<void>}
 */

/** @type {Sleep} */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * One request's options.
 * @typedef {object} Call
 * @property {string | null} [token] the bearer token (none: anonymous)
 * @property {Record<string, string | number | boolean | null | undefined>} [query] query parameters (null and undefined are left out)
 * @property {unknown} [json] the JSON body
 * @property {Record<string, string>} [headers] more headers
 * @property {AbortSignal} [signal] aborts the request and any wait between tries
 * @property {boolean} [safe] may be sent twice (default: GET, HEAD, DELETE, or an Idempotency-Key)
 * @property {boolean} [move] a move: its 403 and 422 get their move errors
 */

/** Sends requests to one referee and throws its problems as typed errors. */
export class Http {
  /**
   * @param {object} options
   * @param {string} options.baseUrl "" for the page's own origin
   * @param {RetryPolicy} options.retry
   * @param {typeof globalThis.fetch} options.fetch
   * @param {Sleep} options.sleep
   */
  constructor({ baseUrl, retry, fetch, sleep }) {
    this.base = baseUrl.replace(/\/+$/, "");
    this.retry = retry;
    this.fetch = fetch;
    this.sleep = sleep;
  }

  /**
   * The URL of `path` (`/v1/…`) with `query`.
   * @param {string} path
   * @param {Call["query"]} [query]
   * @returns {string}
   */
  url(path, query) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== null && value !== undefined) params.append(name, String(value));
    }
    const search = params.toString();
    return this.base + path + (search ? `?${search}` : "");
  }

  /**
   * Seconds to wait before try `attempt + 1` after `error`.
   * @param {unknown} error
   * @param {number} attempt
   * @returns {number}
   */
  delay(error, attempt) {
    const policy = this.retry;
    if (error instanceof RefereeProblem && error.retryAfter !== null) {
      return Math.min(Math.max(0, error.retryAfter), policy.retryAfterMaxS);
    }
    return Math.min(policy.backoffMaxS, policy.backoffS * 2 ** Math.max(0, attempt - 1));
  }

  /**
   * Whether `error` is worth another try of a request that is `safe` to send twice.
   * @param {unknown} error
   * @param {boolean} safe
   * @returns {boolean}
   */
  static retries(error, safe) {
    if (!safe) return false;
    if (error instanceof RefereeProblem) return RETRIED.has(error.status);
    return error instanceof TypeError; // fetch's "the network failed"; an abort is a DOMException
  }

  /**
   * The typed error of an answer of status >= 400 (its body is read).
   * @param {Response} response
   * @param {string} method
   * @param {boolean} move
   * @returns {Promise<RefereeProblem>}
   */
  static async problem(response, method, move) {
    const raw = await response.text();
    /** @type {unknown} */
    let body = null;
    const kind = response.headers.get("Content-Type") ?? "";
    if (/json/i.test(kind)) {
      try { body = JSON.parse(raw); } catch { body = null; }
    }
    const fromReferee = body !== null && typeof body === "object" && !Array.isArray(body);
    const document = fromReferee ? /** @type {Record<string, unknown>} */ (body)
      : { code: `http_${response.status}`, detail: raw.slice(0, 200) };
    return problemFor(response.status, document, {
      retryAfter: retryAfterSeconds(response.headers.get("Retry-After")), method, url: response.url, move,
      fromReferee,
    });
  }

  /**
   * Send one request (retried per the policy) and return its 2xx answer, or
   * throw its problem.
   * @param {string} method
   * @param {string} path
   * @param {Call} [call]
   * @returns {Promise<Response>}
   */
  async request(method, path, call = {}) {
    /** @type {Record<string, string>} */
    const headers = { ...(call.headers ?? {}) };
    if (call.token) headers.Authorization = `Bearer ${call.token}`;
    /** @type {RequestInit} */
    const init = { method, headers, signal: call.signal, cache: "no-store" };
    if (call.json !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(call.json);
    }
    const safe = call.safe ?? (["GET", "HEAD", "DELETE"].includes(method) || "Idempotency-Key" in headers);
    const url = this.url(path, call.query);
    const attempts = Math.max(1, this.retry.attempts);
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await this.fetch(url, init);
        if (response.ok) return response;
        throw await Http.problem(response, method, call.move ?? false);
      } catch (error) {
        if (attempt >= attempts || call.signal?.aborted || !Http.retries(error, safe)) throw error;
        await this.sleep(this.delay(error, attempt) * 1000, call.signal);
      }
    }
  }

  /**
   * A request's JSON answer.
   * @param {string} method
   * @param {string} path
   * @param {Call} [call]
   * @returns {Promise<any>}
   */
  async json(method, path, call) {
    return (await this.request(method, path, call)).json();
  }
}
