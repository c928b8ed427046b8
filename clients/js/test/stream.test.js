/* A game's event stream through a proxy in front of a real referee: a
   stream cut in the middle of an event is opened again with Last-Event-ID
   and every event comes once, in order; where no stream passes at all, the
   long-poll carries the game to its end. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { Referee } from "../src/index.js";
import { play } from "./play.js";
import { startProxy } from "./proxy.js";
import { refereeForFile } from "./referee.js";

/** @type {Referee} */
let referee;
const live = refereeForFile({}, {}, (url) => {
  referee = new Referee({ baseUrl: url });
});

/** @param {number} n */
const oneTo = (n) => Array.from({ length: n }, (_, i) => i + 1);

test("a stream cut mid-event resumes from Last-Event-ID: every event once, in order", async () => {
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  const version = await play(referee, game, 6);
  assert.ok(version > 5);
  const proxy = await startProxy(live.url, { cutAfter: 3 });
  try {
    const watcher = new Referee({ baseUrl: proxy.url });
    /** @type {number[]} */
    const seen = [];
    for await (const event of watcher.games.stream(game.id)) {
      seen.push(event.seq);
      if (event.seq === version) break; // leaving the loop hangs up
    }
    assert.deepEqual(seen, oneTo(version));
    assert.equal(proxy.streams.length, 2);
    assert.equal(proxy.streams[0].lastEventId, undefined);
    assert.match(proxy.streams[0].url, /[?&]after=0\b/);
    assert.equal(proxy.streams[1].lastEventId, "3");
  } finally {
    await proxy.stop();
  }
});

test("a stream resumed from `after` gets only the later events, and ends with the game", async () => {
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  const start = await play(referee, game, 4);
  /** @type {number[]} */
  const seen = [];
  const watching = (async () => {
    for await (const event of referee.games.stream(game.id, { after: start })) seen.push(event.seq);
  })();
  const final = await play(referee, game);
  await watching;
  assert.deepEqual(seen, oneTo(final).slice(start));
});

test("where no stream passes, the events come by long-poll, and end with the game", async () => {
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  const proxy = await startProxy(live.url, { refuseStreams: true });
  try {
    const watcher = new Referee({ baseUrl: proxy.url });
    /** @type {number[]} */
    const seen = [];
    const watching = (async () => {
      for await (const event of watcher.games.stream(game.id)) seen.push(event.seq);
    })();
    const final = await play(referee, game);
    await watching;
    assert.deepEqual(seen, oneTo(final));
    assert.ok(proxy.streams.length >= 1); // it was tried first
  } finally {
    await proxy.stop();
  }
});

test("a stream the referee refuses is its problem, not a fallback", async () => {
  await assert.rejects(async () => {
    for await (const event of referee.games.stream("no-such-game")) assert.fail(`an event: ${event.seq}`);
  }, (error) => error instanceof Error && "status" in error && error.status === 404);
});

test("aborting the signal hangs up a stream that waits", async () => {
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  const controller = new AbortController();
  /** @type {number[]} */
  const seen = [];
  const ended = (async () => {
    for await (const event of referee.games.stream(game.id, { signal: controller.signal })) {
      seen.push(event.seq);
      controller.abort();
    }
  })().then(() => null, (error) => error);
  await play(referee, game, 1);
  const error = await ended;
  assert.ok(error instanceof Error && error.name === "AbortError", String(error));
  assert.deepEqual(seen, [1]);
});
