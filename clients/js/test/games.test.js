/* The client against a real referee (its own Redis, `referee serve`): a
   game created, viewed, refused, moved, streamed to its end, replayed,
   logged and audited; idempotent moves; open seats and reissued tokens; a game-end webhook;
   the listings; the rulesets; keys and health. */
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  clockLeft, Conflict, Forbidden, GameOver, MoveRefused, NotFound, NotYourTurn, Referee, RefereeProblem,
  Unauthorized, Unprocessable, VersionConflict,
} from "../src/index.js";
import { play } from "./play.js";
import { ADMIN, refereeForFile } from "./referee.js";

/** @type {Referee} */
let referee;
const live = refereeForFile({}, {}, (url) => {
  referee = new Referee({ baseUrl: url });
});

test("a game: created, viewed by a seat and a spectator, a refused move, moves, streamed to its end", async () => {
  // seeded: its first turn is a roll (another deal may open with a character's decision)
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3, seed: "js-client" });
  assert.equal(game.seats.length, 3);
  assert.ok(game.seats.every((seat) => typeof seat.token === "string" && seat.token));
  const spectator = await referee.games.view(game.id);
  assert.equal(spectator.status, "active");
  assert.equal(spectator.legal_moves.length, 0);
  const seat = spectator.to_act[0];
  const token = game.seats[seat].token;
  const mine = await referee.games.view(game.id, { token });
  assert.equal(mine.seat, seat);
  assert.ok(mine.legal_moves.length > 0);

  // no Saloon die in a game without the module: the rules refuse it, naming the rule
  const refused = await referee.games.move(game.id, { type: "roll", saloon: "loudmouth" }, { token })
    .then(() => null, (error) => error);
  assert.ok(refused instanceof MoveRefused && refused instanceof Unprocessable && refused instanceof RefereeProblem);
  assert.equal(refused.status, 422);
  assert.equal(refused.code, "no_saloon_die");
  assert.equal(refused.rule, "D52");
  assert.ok(refused.detail);
  assert.equal(refused.body.rule, "D52");
  const rule = await referee.rulesets.rule("bang-dice", refused.rule);
  assert.equal(rule.id, "D52");
  assert.ok(rule.text);

  const other = game.seats[(seat + 1) % 3].token;
  await assert.rejects(referee.games.move(game.id, mine.legal_moves[0], { token: other }),
                       (error) => error instanceof NotYourTurn && error instanceof Forbidden && error.rule !== null);
  await assert.rejects(referee.games.move(game.id, mine.legal_moves[0], { token, expectedVersion: 0 }),
                       (error) => error instanceof VersionConflict && error instanceof Conflict
                         && error.currentVersion === mine.version);
  await assert.rejects(referee.games.move(game.id, mine.legal_moves[0], { token: "not-a-token" }),
                       (error) => error instanceof Unauthorized && error.code === "bad_token");

  const watcher = new Referee({ baseUrl: live.url });
  /** @type {number[]} */
  const streamed = [];
  const watching = (async () => {
    for await (const event of watcher.games.stream(game.id)) streamed.push(event.seq);
  })();
  const final = await play(referee, game);
  await watching; // the stream ends by itself with the game
  assert.deepEqual(streamed, Array.from({ length: final }, (_, i) => i + 1));
  const over = await referee.games.view(game.id);
  assert.equal(over.status, "finished");
  await assert.rejects(referee.games.move(game.id, mine.legal_moves[0], { token }),
                       (error) => error instanceof GameOver && error.status === 410);

  const page = await referee.games.events(game.id, { after: final - 2 });
  assert.deepEqual(page.events.map((event) => event.seq), [final - 1, final]);

  const text = await referee.games.logText(game.id);
  const records = await referee.games.log(game.id);
  assert.equal(text.trimEnd().split("\n").length, records.length);
  assert.equal(records.length, final + 1); // the header, then one line an event
  assert.ok(records[0].header);
  assert.deepEqual(records.slice(1).map((record) => record.seq), streamed);
  const audit = await referee.games.audit(game.id);
  assert.equal(audit.ok, true);
  assert.equal(audit.events, final);

  const replay = await referee.games.replay(game.id, { version: replayable(await referee.games.replay(game.id)) });
  assert.equal(replay.latest_version, final);
  assert.ok(Array.isArray(replay.views));
});

/**
 * The first version a replay can show after the deal.
 * @param {{shown_versions: number[]}} replay
 */
function replayable(replay) {
  return replay.shown_versions[1] ?? replay.shown_versions[0];
}

test("a move sent twice under one Idempotency-Key is played once and answered alike", async () => {
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  const seat = (await referee.games.view(game.id)).to_act[0];
  const token = game.seats[seat].token;
  const mine = await referee.games.view(game.id, { token });
  const options = { token, idempotencyKey: "js-client-key-1" };
  const first = await referee.games.move(game.id, mine.legal_moves[0], options);
  const again = await referee.games.move(game.id, mine.legal_moves[0], options);
  assert.deepEqual(again, first);
  assert.equal((await referee.games.view(game.id)).version, first.version);
  const events = await referee.games.events(game.id, { after: mine.version, token });
  assert.deepEqual(events.events.map((event) => event.seq), first.events.map((event) => event.seq));
  // the key again with another move: the caller's slip, not a refused move
  await assert.rejects(referee.games.move(game.id, { type: "resign" }, options),
                       (error) => error instanceof Unprocessable && !(error instanceof MoveRefused)
                         && error.code === "idempotency_key_reused");
});

test("an open seat is claimed once; a seat's token is reissued and the old one stops working", async () => {
  const game = await referee.games.create({ ruleset: "bang-dice", seats: [{ name: "ann" }, { name: "bob" },
                                                                          { open: true }] });
  const claimed = await referee.games.claim(game.id, 2, "cat");
  assert.equal(claimed.seat, 2);
  assert.equal(claimed.name, "cat");
  await assert.rejects(referee.games.claim(game.id, 2, "dan"), (error) => error instanceof Conflict
                         && error.code === "seat_taken");
  const view = await referee.games.view(game.id, { token: claimed.token });
  assert.equal(view.seat, 2);

  const reissued = await referee.games.reissue(game.id, 0, { ownerToken: game.owner_token });
  assert.equal(reissued.seat, 0);
  assert.notEqual(reissued.token, game.seats[0].token);
  await assert.rejects(referee.games.view(game.id, { token: game.seats[0].token }),
                       (error) => error instanceof Unauthorized);
  assert.equal((await referee.games.view(game.id, { token: reissued.token })).seat, 0);
  await assert.rejects(referee.games.reissue(game.id, 2, { ownerToken: game.owner_token }),
                       (error) => error instanceof Forbidden && error.code === "seat_belongs_to_claimant");
});

test("a game-end webhook: its URL held to the bot URLs' rules, its deliveries the creator's only", async () => {
  await assert.rejects(referee.games.create({ ruleset: "bang-dice", players: 3,
                                              options: { callback_url: "http://169.254.169.254/" } }),
                       (error) => error instanceof Unprocessable && error.code === "callback_url_refused");
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3,
                                            options: { callback_url: "http://93.184.215.14/over" } });  // never called: the game goes on
  assert.equal(typeof game.callback_secret, "string");
  const shown = await referee.games.deliveries(game.id, { ownerToken: game.owner_token });
  assert.equal(shown.state, "waiting");
  assert.deepEqual(shown.attempts, []);
  await assert.rejects(referee.games.deliveries(game.id, { ownerToken: game.seats[0].token ?? "" }),
                       (error) => error instanceof Unauthorized && error.code === "bad_token");
  const plain = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  assert.equal(plain.callback_secret, undefined);
  await assert.rejects(referee.games.deliveries(plain.id, { ownerToken: plain.owner_token }),
                       (error) => error instanceof NotFound && error.code === "no_callback");
});

test("presence, a clock and the spectators' delay, as every reader's view shows them; the broadcast", async () => {
  // docs/presence.md: a seat whose token was used is here, since then, to every reader; one never seen is not
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3, options: {
    clock: { bank_s: 600 }, spectator_delay: 50, spectator_omniscient: true } });
  await referee.games.view(game.id, { token: game.seats[1].token ?? "" });
  const seen = await referee.games.view(game.id);
  assert.equal(seen.seats[1].connected, true);
  assert.equal(typeof seen.seats[1].since, "number");
  assert.deepEqual([seen.seats[0].connected, seen.seats[0].since], [false, null]);
  // docs/spectators.md: inside the delay a spectator sees version 0, no clock's deadline, and no hand
  assert.deepEqual([seen.version, seen.spectator_delay], [0, { versions: 50, omniscient: true }]);
  const broadcast = await referee.games.broadcast(game.id);
  assert.deepEqual([broadcast.version, broadcast.views], [0, []]);
  const plain = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  await assert.rejects(referee.games.broadcast(plain.id),
                       (error) => error instanceof Forbidden && error.code === "broadcast_not_offered");
  // docs/clocks.md: a seat's own view is live, with its clock and the server's time to count down from
  const first = (await referee.games.view(game.id, { token: game.seats[0].token ?? "" })).to_act[0];
  const mine = await referee.games.view(game.id, { token: game.seats[first].token ?? "" });
  assert.ok(mine.clock && mine.clock.bank_ms === 600_000 && typeof mine.clock.server_time === "number");
  const left = clockLeft(mine, first);
  assert.ok(left !== null && left > 0 && left <= 600_000);
  assert.equal(clockLeft(mine, first, 700_000), 0);
  assert.equal(clockLeft(await referee.games.view(plain.id), 0), null);
});

test("the client's default token is sent unless a call gives its own (null: none)", async () => {
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3 });
  const seated = new Referee({ baseUrl: live.url, token: game.seats[1].token });
  assert.equal((await seated.games.view(game.id)).seat, 1);
  assert.equal((await seated.games.view(game.id, { token: game.seats[2].token })).seat, 2);
  assert.equal((await seated.games.view(game.id, { token: null })).seat ?? null, null);
  // the log of an active game is the admin's only
  await assert.rejects(referee.games.logText(game.id), (error) => error instanceof Forbidden
                         && error.code === "log_not_public");
  assert.ok((await referee.games.log(game.id, { token: ADMIN })).length >= 2);
});

test("the listing, a page at a time and all of it", async () => {
  const made = [];
  for (let i = 0; i < 3; i++) made.push((await referee.games.create({ ruleset: "bang-dice", players: 3 })).id);
  const first = await referee.games.list({ limit: 2 });
  assert.equal(first.games.length, 2);
  assert.equal(typeof first.next, "string");
  /** @type {string[]} */
  const ids = [];
  for await (const game of referee.games.all({ limit: 2, ruleset: "bang-dice" })) ids.push(game.id);
  assert.ok(made.every((id) => ids.includes(id)));
  assert.equal(new Set(ids).size, ids.length);
});

test("the rulesets: listed, one, its catalogue, its rules; unknown ones are NotFound", async () => {
  const { rulesets } = await referee.rulesets.list(); // the body as served, as every call's answer
  assert.ok(rulesets.some((ruleset) => ruleset.name === "bang-dice"));
  assert.equal((await referee.rulesets.get("bang-dice")).name, "bang-dice");
  const catalogue = await referee.rulesets.catalogue("bang-dice");
  assert.ok(Array.isArray(catalogue.characters) && catalogue.characters.length > 0);
  const { ruleset, rules } = await referee.rulesets.rules("bang-dice");
  assert.equal(ruleset, "bang-dice");
  assert.ok(rules.some((rule) => rule.id === "D52"));
  await assert.rejects(referee.rulesets.get("no-such-ruleset"), (error) => error instanceof NotFound
                         && error.status === 404 && error.code !== null && error.title !== null);
  await assert.rejects(referee.rulesets.rule("bang-dice", "Z999"), (error) => error instanceof NotFound
                         && error.code === "unknown_rule");
});

test("keys, health, metrics and the contract", async () => {
  const keys = await referee.keys();
  assert.ok(keys.keys.length > 0 && keys.keys.every((key) => key.kid));
  assert.deepEqual(await referee.health(), { status: "ok", redis: "ok" });
  assert.match(await referee.metrics(), /^# (HELP|TYPE) /m);
  assert.match(await referee.openapi(), /^openapi: 3\.1/m);
});
