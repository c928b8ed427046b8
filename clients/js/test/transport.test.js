/* Lost connections, against a port where nothing listens (a real refusal
   by the kernel, not a stand-in): a request safe to send twice is tried
   again after a growing pause, up to the policy's attempts; one that is not
   safe is tried once; a stream that cannot be opened falls back to the
   long-poll, whose own failure is what the caller gets. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { Referee } from "../src/index.js";
import { sleep } from "../src/transport.js";
import { freePort } from "./referee.js";

/** A client of a port with nothing behind it, its tries and pauses recorded. */
async function unreachable() {
  const url = `http://127.0.0.1:${await freePort()}`;
  /** @type {string[]} */
  const tried = [];
  /** @type {number[]} */
  const waits = [];
  const referee = new Referee({
    baseUrl: url, retry: { attempts: 4, backoffS: 0.01, backoffMaxS: 0.03 },
    fetch: (input, init) => {
      tried.push(`${init?.method ?? "GET"} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    },
    sleep: (ms, signal) => {
      waits.push(ms);
      return sleep(ms, signal);
    },
  });
  return { referee, tried, waits };
}

test("a safe request is tried again after a growing pause, up to the attempts, then fails", async () => {
  const { referee, tried, waits } = await unreachable();
  await assert.rejects(referee.keys(), TypeError);
  assert.deepEqual(tried, Array(4).fill("GET /v1/keys"));
  assert.deepEqual(waits, [10, 20, 30]);
});

test("a move is safe (its Idempotency-Key); creating a game is not: tried once", async () => {
  const { referee, tried } = await unreachable();
  await assert.rejects(referee.games.move("g", { type: "resign" }, { token: "t" }), TypeError);
  assert.equal(tried.length, 4);
  tried.length = 0;
  await assert.rejects(referee.games.create({ ruleset: "bang-dice", players: 3 }), TypeError);
  assert.deepEqual(tried, ["POST /v1/games"]);
});

test("a stream that cannot be opened falls back to the long-poll, whose failure the caller gets", async () => {
  const { referee, tried } = await unreachable();
  await assert.rejects(async () => {
    for await (const event of referee.games.stream("g")) assert.fail(`an event: ${event.seq}`);
  }, TypeError);
  assert.deepEqual([...new Set(tried)], ["GET /v1/games/g/events/stream", "GET /v1/games/g/events"]);
});

test("an aborted signal ends the pause between tries at once", async () => {
  const { referee, waits } = await unreachable();
  const controller = new AbortController();
  const slow = new Referee({ baseUrl: referee.http.base, retry: { backoffS: 600, backoffMaxS: 600 },
                             sleep: (ms, signal) => { waits.push(ms); controller.abort(); return sleep(ms, signal); } });
  await assert.rejects(slow.health({ signal: controller.signal }), (error) => error instanceof Error
                         && error.name === "AbortError");
  assert.deepEqual(waits, [600000]);
});
