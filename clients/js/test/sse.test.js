/* The Server-Sent Events parser, against the HTML standard's rules, fed
   whole and in every split of the text (a network may cut anywhere). */
import assert from "node:assert/strict";
import { test } from "node:test";

import { SseParser, readEvents } from "../src/sse.js";

/**
 * The events of `text` fed in the pieces `cuts` makes.
 * @param {string} text
 * @param {number[]} cuts
 */
function parsed(text, cuts = []) {
  const parser = new SseParser();
  const out = [];
  let start = 0;
  for (const cut of [...cuts, text.length]) {
    out.push(...parser.push(text.slice(start, cut)));
    start = cut;
  }
  return out;
}

/**
 * Every way to cut `text` in two, and in three at neighbouring places: each must parse alike.
 * @param {string} text
 */
function everySplit(text) {
  const whole = parsed(text);
  for (let i = 0; i <= text.length; i++) {
    assert.deepEqual(parsed(text, [i]), whole, `cut at ${i}`);
    if (i + 1 <= text.length) assert.deepEqual(parsed(text, [i, i + 1]), whole, `cut at ${i}, ${i + 1}`);
  }
  return whole;
}

test("the referee's stream: retry alone, events with id, type and data, a comment, the end", () => {
  const text = "retry: 500\n\nid: 1\nevent: game_created\ndata: {\"seq\":1}\n\n: keepalive\n\n"
    + "id: 2\ndata: {\"seq\":2}\n\nevent: end\ndata: {\"status\":\"finished\",\"version\":2}\n\n";
  assert.deepEqual(everySplit(text), [
    { id: "", event: "", data: "", retry: 500 },
    { id: "1", event: "game_created", data: "{\"seq\":1}", retry: undefined },
    { id: "2", event: "", data: "{\"seq\":2}", retry: undefined },
    { id: "2", event: "end", data: "{\"status\":\"finished\",\"version\":2}", retry: undefined },
  ]);
});

test("CRLF, CR and LF all end a line, also when a CRLF is split between two chunks", () => {
  const events = everySplit("data: a\r\ndata: b\r\rdata: c\rid: 7\n\ndata:d\r\n\r\n");
  assert.deepEqual(events.map((e) => [e.data, e.id]), [["a\nb", ""], ["c", "7"], ["d", "7"]]);
});

test("one leading space of a value is dropped, no more; a field without colon has an empty value", () => {
  const events = everySplit("data:  two spaces\ndata\ndata:x\n\n");
  assert.deepEqual(events.map((e) => e.data), [" two spaces\n\nx"]);
});

test("a block without data dispatches nothing (but its retry); unknown fields and a bad retry are ignored", () => {
  const events = everySplit("event: lonely\n\nfoo: bar\nretry: soon\ndata: kept\n\nid: 9\n\n");
  assert.deepEqual(events, [{ id: "", event: "", data: "kept", retry: undefined }]);
  const parser = new SseParser();
  parser.push("id: 9\n\ndata: after\n\n");
  assert.equal(parser.lastId, "9");
});

test("an id with a NUL is ignored; an event cut off at the end of the stream is dropped", async () => {
  assert.deepEqual(everySplit("id: 3\ndata: a\n\nid: 4\0\ndata: b\n\n").map((e) => e.id), ["3", "3"]);
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    start(controller) {
      for (const chunk of ["id: 1\nda", "ta: é\n", "\ndata: cut off"]) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const got = [];
  for await (const event of readEvents(body)) got.push(event);
  assert.deepEqual(got, [{ id: "1", event: "", data: "é", retry: undefined }]);
});

test("a character split between two chunks of bytes is decoded whole", async () => {
  const bytes = new TextEncoder().encode("data: ünïcødé ✓\n\n");
  const body = new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i++) controller.enqueue(bytes.slice(i, i + 1));
      controller.close();
    },
  });
  const got = [];
  for await (const event of readEvents(body)) got.push(event.data);
  assert.deepEqual(got, ["ünïcødé ✓"]);
});
