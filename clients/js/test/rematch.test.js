/* Rematch and series (issue 40 item 4) through the client, against a real
   referee: a finished Face Off game's rematch swaps the seats, each person
   takes their new seat with their old token (its token once), every ask
   answers with the same game, and the series keeps the score. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { Conflict, Referee } from "../src/index.js";
import { refereeForFile } from "./referee.js";

/** @type {Referee} */
let referee;
refereeForFile({}, {}, (url) => {
  referee = new Referee({ baseUrl: url });
});

/** a game ended at once: the seat to act resigns
    @param {import("../src/types.js").Ok<"createGame">} game */
async function resigned(game) {
  const view = await referee.games.view(game.id);
  const seat = view.to_act[0];
  await referee.games.move(game.id, { type: "resign" }, { token: game.seats[seat].token });
  return seat;
}

test("a rematch swaps a Face Off table's seats; each person takes theirs once; the series keeps score", async () => {
  const game = await referee.games.create({ ruleset: "bang-faceoff", seats: [{ name: "ann" }, { name: "bob" }],
                                            options: { series: { games: 2 } } });
  await assert.rejects(referee.games.rematch(game.id, { token: game.owner_token }),
                       (error) => error instanceof Conflict && error.code === "game_not_finished");
  const loser = await resigned(game);
  const ann = await referee.games.rematch(game.id, { token: game.seats[0].token });
  assert.equal(ann.rematch_of, game.id);
  assert.deepEqual(ann.seats.map((s) => [s.name, s.from_seat]), [["bob", 1], ["ann", 0]]);
  assert.equal(ann.seat, 1);
  assert.ok(ann.token);
  const again = await referee.games.rematch(game.id, { token: game.seats[0].token });
  assert.equal(again.id, ann.id);
  assert.equal(again.token, null);
  const bob = await referee.games.rematch(game.id, { token: game.seats[1].token });
  assert.equal(bob.seat, 0);
  assert.equal((await referee.games.view(game.id)).next_game, ann.id);
  assert.equal((await referee.games.view(ann.id, { token: ann.token })).seat, 1);
  const series = await referee.games.series(game.id);
  assert.deepEqual(series.format, { games: 2 });
  assert.deepEqual(series.games.map((g) => g.id), [game.id, ann.id]);
  assert.deepEqual(series.games[0].winners, [1 - loser]);
  assert.equal(series.players[1 - loser].wins, 1);
  assert.equal(series.status, "active");
});
