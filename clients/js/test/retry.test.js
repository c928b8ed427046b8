/* Retry-After honoured, against a real referee with a low rate limit
   (REFEREE_RATE_LIMIT=1/2: two requests a caller in a 2-second window):
   a safe request and a move answered 429 are sent again once the referee's
   Retry-After has passed, and succeed; a request that is not safe is not
   sent again; a client that may not retry gets RateLimited with retryAfter.
   The client's fetch and sleep are the real ones, wrapped to record. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { RateLimited, Referee } from "../src/index.js";
import { sleep } from "../src/transport.js";
import { ADMIN, refereeForFile } from "./referee.js";

const live = refereeForFile({ REFEREE_RATE_LIMIT: "1/2" });

/**
 * @typedef {{method: string, path: string, status: number, retryAfter: string | null, key: string | null}} Sent
 */

/**
 * A client whose every answer and every pause between tries is recorded.
 * @param {Partial<import("../src/transport.js").RetryPolicy>} [retry]
 */
function recording(retry) {
  /** @type {Sent[]} */
  const sent = [];
  /** @type {number[]} */
  const waits = [];
  const referee = new Referee({
    baseUrl: live.url, retry,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const headers = new Headers(init?.headers);
      sent.push({ method: init?.method ?? "GET", path: new URL(String(input)).pathname, status: response.status,
                  retryAfter: response.headers.get("Retry-After"), key: headers.get("Idempotency-Key") });
      return response;
    },
    sleep: (ms, signal) => {
      waits.push(ms);
      return sleep(ms, signal);
    },
  });
  return { referee, sent, waits };
}

/**
 * Each pause came after a 429 and lasted its Retry-After.
 * @param {Sent[]} sent
 * @param {number[]} waits
 */
function honoured(sent, waits) {
  const limited = sent.filter((answer) => answer.status === 429);
  assert.ok(limited.length >= 1, "the low limit answered 429");
  assert.equal(waits.length, limited.length);
  limited.forEach((answer, i) => {
    assert.ok(answer.retryAfter !== null && Number(answer.retryAfter) >= 1);
    assert.equal(waits[i], Number(answer.retryAfter) * 1000);
  });
}

test("safe requests answered 429 are sent again after Retry-After, and succeed", async () => {
  const { referee, sent, waits } = recording();
  const answers = await Promise.all(Array.from({ length: 5 }, () => referee.rulesets.list()));
  assert.ok(answers.every((body) => body.rulesets.length > 0));
  honoured(sent, waits);
  assert.equal(sent.filter((answer) => answer.status === 200).length, 5);
});

test("a move answered 429 is sent again under its Idempotency-Key after Retry-After, and played once", async () => {
  const admin = new Referee({ baseUrl: live.url });
  const game = await admin.games.create({ ruleset: "bang-dice", players: 3 }, { token: ADMIN });
  const { referee, sent, waits } = recording();
  /** @param {Sent} answer */
  const refusedMove = (answer) => answer.method === "POST" && answer.status === 429;
  let accepted;
  // two views spend the seat's window (two requests in 2 s), so its move is refused 429 first; should
  // the machine take 2 s over them, another round
  for (let round = 0; round < 5 && !sent.some(refusedMove); round++) {
    const token = game.seats[(await admin.games.view(game.id)).to_act[0]].token;
    const mine = await referee.games.view(game.id, { token });
    await referee.games.view(game.id, { token });
    accepted = await referee.games.move(game.id, mine.legal_moves[0], { token, expectedVersion: mine.version });
  }
  const refused = sent.find(refusedMove);
  assert.ok(refused && accepted);
  const tries = sent.filter((answer) => answer.method === "POST" && answer.key === refused.key);
  assert.deepEqual(tries.map((answer) => answer.status), [...Array(tries.length - 1).fill(429), 201]);
  honoured(sent, waits);
  assert.equal((await admin.games.view(game.id)).version, accepted.version);
});

test("a request that is not safe to send twice is not retried: RateLimited, with retryAfter", async () => {
  const { referee, sent, waits } = recording();
  // four at once where two fit the window: two at least are refused, and stay so
  const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () =>
    referee.games.create({ ruleset: "bang-dice", players: 3 })));
  const refused = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
  assert.ok(refused.length >= 2);
  for (const error of refused) {
    assert.ok(error instanceof RateLimited && error.status === 429 && error.code === "rate_limited");
    assert.ok(typeof error.retryAfter === "number" && error.retryAfter >= 1);
  }
  assert.equal(sent.length, 4);
  assert.deepEqual(waits, []);
});

test("a client that may not retry gets RateLimited at once", async () => {
  const { referee, waits } = recording({ attempts: 1 });
  const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => referee.keys()));
  const refused = outcomes.filter((outcome) => outcome.status === "rejected");
  assert.ok(refused.length >= 2);
  for (const outcome of refused) {
    assert.ok(outcome.status === "rejected" && outcome.reason instanceof RateLimited);
    assert.ok(outcome.reason.retryAfter !== null && outcome.reason.retryAfter >= 1);
  }
  assert.deepEqual(waits, []);
});
