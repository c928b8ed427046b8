/* The ladder through the client, against a real referee and a real worker
   (issue 42): rated games of the built-in bots played to their end and
   recorded, then every ladder, one ladder's table a page at a time and
   row after row, and a bot's profile with its rating after each game. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { NotFound, Referee } from "../src/index.js";
import { refereeForFile } from "./referee.js";

/** @type {Referee} */
let referee;
refereeForFile({}, { worker: true }, (url) => {
  referee = new Referee({ baseUrl: url });
});

/** @param {number} ms */
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

test("rated games ranked: every ladder, a ladder's pages and rows, a bot's profile over time", async () => {
  /** @type {string[]} */
  const games = [];
  for (let i = 0; i < 3; i++) {
    const game = await referee.games.create({
      ruleset: "bluffaneer", seats: [{ bot: "heuristic" }, { bot: "random" }, { bot: "random" }],
      options: { rated: true },
    });
    games.push(game.id);
  }
  // each game's end is recorded by the worker's job: wait until the profile lists every one and its
  // rating history counts every one (a finished game is listed a moment before its rating is recorded)
  /** @type {import("../src/ladder.js").BotProfile | undefined} */
  let profile;
  /** @param {import("../src/ladder.js").BotProfile | undefined} p */
  const recorded = (p) => games.every((id) => p?.games.some((g) => g.id === id)
    && p?.ladders.bluffaneer?.history.some((h) => h.game === id));
  for (let tries = 0; tries < 1200; tries++) {
    profile = await referee.ladder.botProfile("heuristic");
    if (recorded(profile)) break;
    await pause(100);
  }
  assert.ok(profile && recorded(profile), "the games were recorded");
  assert.equal(profile.bot.id, "heuristic");
  assert.equal(profile.bot.builtin, true);
  const standing = profile.ladders.bluffaneer;
  assert.equal(standing.games, 3);
  assert.deepEqual(standing.history.map((h) => h.game).sort(), games.slice().sort());

  const { ladders } = await referee.ladder.ladders();
  const bluffaneer = ladders.find((l) => l.key === "bluffaneer");
  assert.ok(bluffaneer);
  assert.equal(bluffaneer.games, 3);
  assert.equal(bluffaneer.bots, 2);

  const first = await referee.ladder.ladder("bluffaneer", { limit: 1 });
  assert.equal(first.items.length, 1);
  assert.equal(first.items[0].rank, 1);
  assert.ok(first.next_cursor);
  const second = await referee.ladder.ladder("bluffaneer", { limit: 1, cursor: first.next_cursor ?? undefined });
  assert.equal(second.items[0].rank, 2);
  assert.equal(second.next_cursor, null);
  /** @type {string[]} */
  const ids = [];
  for await (const row of referee.ladder.rows("bluffaneer", { limit: 1 })) ids.push(row.bot.id);
  assert.deepEqual(ids, [first.items[0].bot.id, second.items[0].bot.id]);
  assert.deepEqual(ids.slice().sort(), ["heuristic", "random"]);
  const random = second.items[0].bot.id === "random" ? second.items[0] : first.items[0];
  assert.equal(random.games, 6); // two seats a game, each counted

  await assert.rejects(referee.ladder.ladder("no-such-ruleset"), (error) => error instanceof NotFound);
  await assert.rejects(referee.ladder.botProfile("bot_nobody"), (error) => error instanceof NotFound);
});
