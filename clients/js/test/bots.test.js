/* Bots and tournaments through the client, against a real referee and a
   real worker: an outbound bot registered, read, listed, seated in a game,
   given its turn over its stream, answering it, deleted; a tournament
   created, read, listed and cancelled. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { Conflict, NotFound, Referee, Unauthorized } from "../src/index.js";
import { refereeForFile } from "./referee.js";

/** @type {Referee} */
let referee;
const live = refereeForFile({ REFEREE_BOT_TIMEOUT_S: "60" }, { worker: true }, (url) => {
  referee = new Referee({ baseUrl: url });
});

test("an outbound bot: registered, read, listed, given a turn on its stream, answering it, deleted", async () => {
  const bot = await referee.bots.register({ name: "js-bot", rulesets: ["bang-dice"], seating: "public" });
  assert.equal(bot.kind, "outbound");
  assert.ok(bot.secret);
  const secret = bot.secret;
  assert.equal((await referee.bots.get(bot.id, { token: secret })).name, "js-bot");
  await assert.rejects(referee.bots.get(bot.id, { token: "not-its-secret" }), (error) => error instanceof Unauthorized);
  assert.ok((await referee.bots.list()).bots.some((listed) => listed.id === bot.id));
  /** @type {string[]} */
  const ids = [];
  for await (const listed of referee.bots.all({ limit: 1 })) ids.push(listed.id);
  assert.ok(ids.includes(bot.id));

  // every seat the bot's: its first turn comes over its stream at once
  const game = await referee.games.create({ ruleset: "bang-dice", seats: [0, 1, 2].map(() => ({ bot: bot.id })) });
  const controller = new AbortController();
  /** @type {import("../src/bots.js").Turn | undefined} */
  let turn;
  try {
    for await (const offered of referee.bots.turns(bot.id, { token: secret, signal: controller.signal })) {
      turn = offered;
      break;
    }
  } finally {
    controller.abort();
  }
  assert.ok(turn && turn.id && turn.delivery && turn.signature.startsWith("sha256="));
  const body = JSON.parse(turn.body);
  assert.equal(body.game, game.id);
  const answered = await referee.bots.answer(bot.id, turn.delivery, body.legal_moves[0], { token: secret });
  assert.deepEqual(answered, { delivery: turn.delivery, accepted: true });
  await assert.rejects(referee.bots.answer(bot.id, turn.delivery, body.legal_moves[0], { token: secret }),
                       (error) => error instanceof Conflict && error.code === "turn_closed");

  assert.deepEqual(await referee.bots.delete(bot.id, { token: secret }), { id: bot.id, deleted: true });
  await assert.rejects(referee.bots.get(bot.id, { token: secret }),
                       (error) => error instanceof NotFound || error instanceof Unauthorized);
});

test("a tournament: created, read, listed, cancelled (twice: nothing changes)", async () => {
  // an outbound bot that never answers holds its game for REFEREE_BOT_TIMEOUT_S a turn: still running when cancelled
  const silent = await referee.bots.register({ name: "silent", rulesets: ["bang-dice"], seating: "public" });
  const created = await referee.tournaments.create({
    ruleset: "bang-dice", entrants: [{ bot: silent.id }, "random", "heuristic"], games: 1, players: 3,
  });
  assert.ok(created.id && created.cancel_token);
  assert.equal((await referee.tournaments.get(created.id)).id, created.id);
  assert.ok((await referee.tournaments.list()).tournaments.some((listed) => listed.id === created.id));
  /** @type {string[]} */
  const ids = [];
  for await (const listed of referee.tournaments.all({ limit: 1 })) ids.push(listed.id);
  assert.ok(ids.includes(created.id));
  await assert.rejects(referee.tournaments.cancel(created.id, { token: "not-its-token" }),
                       (error) => error instanceof Unauthorized);
  const cancelled = await referee.tournaments.cancel(created.id, { token: created.cancel_token });
  assert.equal(cancelled.status, "cancelled");
  assert.equal((await referee.tournaments.cancel(created.id, { token: created.cancel_token })).status,
               cancelled.status);
  await assert.rejects(referee.tournaments.get("no-such-tournament"), (error) => error instanceof NotFound);
});
