/* Server-Sent Events read from a fetch response's body (a ReadableStream),
   because a browser's EventSource cannot send an Authorization header and a
   seat's token must never travel in a URL. The parser follows the HTML
   standard's "event stream interpretation": lines end with CRLF, LF or CR;
   `:` starts a comment; `data:` lines are joined with LF; a blank line
   dispatches; an event without data is not dispatched, but its `retry:` is
   still reported (the referee sends `retry: 500` alone). */

/**
 * One dispatched event, or a lone `retry:` (then `data` is "").
 * @typedef {object} SseEvent
 * @property {string} id the last event ID (the stream's, carried over from earlier events as the standard says)
 * @property {string} event the event type ("" when none was named: the standard's "message")
 * @property {string} data the data lines joined with "\n"
 * @property {number | undefined} retry the reconnection time (ms) this block set, if any
 */

/** An incremental parser: feed it text as it arrives, take the events it completes. */
export class SseParser {
  constructor() {
    /** @type {string} text after the last complete line */
    this.rest = "";
    /** a CR ended the last chunk: an LF starting the next one belongs to it */
    this.pendingCr = false;
    this.lastId = "";
    this.type = "";
    /** @type {string[]} */
    this.data = [];
    /** @type {number | undefined} */
    this.retry = undefined;
  }

  /**
   * The events that `text` completes.
   * @param {string} text
   * @returns {SseEvent[]}
   */
  push(text) {
    if (this.pendingCr && text.startsWith("\n")) text = text.slice(1);
    this.pendingCr = false;
    const buffer = this.rest + text;
    /** @type {SseEvent[]} */
    const out = [];
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== "\n" && c !== "\r") continue;
      this.line(buffer.slice(start, i), out);
      if (c === "\r") {
        if (i + 1 === buffer.length) this.pendingCr = true;
        else if (buffer[i + 1] === "\n") i++;
      }
      start = i + 1;
    }
    this.rest = buffer.slice(start);
    return out;
  }

  /**
   * One complete line.
   * @param {string} line
   * @param {SseEvent[]} out
   */
  line(line, out) {
    if (line === "") {
      this.dispatch(out);
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.type = value;
    else if (field === "id" && !value.includes("\0")) this.lastId = value;
    else if (field === "retry" && /^[0-9]+$/.test(value)) this.retry = Number(value);
  }

  /** @param {SseEvent[]} out */
  dispatch(out) {
    if (this.data.length || this.retry !== undefined) {
      out.push({ id: this.lastId, event: this.data.length ? this.type : "", data: this.data.join("\n"),
                 retry: this.retry });
    }
    this.type = "";
    this.data = [];
    this.retry = undefined;
  }
}

/**
 * The events of a response body, as they arrive; a body that ends in the
 * middle of an event drops that event (the standard's rule).
 * @param {ReadableStream<Uint8Array>} body
 * @returns {AsyncGenerator<SseEvent, void, undefined>}
 */
export async function* readEvents(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        parser.push(decoder.decode());
        return;
      }
      yield* parser.push(decoder.decode(chunk.value, { stream: true }));
    }
  } finally {
    reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
