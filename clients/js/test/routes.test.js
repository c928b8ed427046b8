/* Every route of openapi.yaml has a client method: for each operation the
   contract names, the method this table calls sends exactly that method and
   path to a real referee (whatever it answers: a made-up id gets a 404, and
   that is enough to see the route). A route added to the contract fails
   here until the client has a method for it and the table a line. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { parse } from "yaml";

import { Referee } from "../src/index.js";
import { refereeForFile } from "./referee.js";

const CONTRACT = new URL("../../../openapi.yaml", import.meta.url);
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** @type {Record<string, (referee: Referee) => Promise<unknown>>} */
const CALLS = {
  listRulesets: (r) => r.rulesets.list(),
  getRuleset: (r) => r.rulesets.get("bang-dice"),
  listRules: (r) => r.rulesets.rules("bang-dice"),
  getRule: (r) => r.rulesets.rule("bang-dice", "D52"),
  getCatalogue: (r) => r.rulesets.catalogue("bang-dice"),
  listGames: (r) => r.games.list(),
  createGame: (r) => r.games.create({ ruleset: "bang-dice", players: 3 }),
  viewGame: (r) => r.games.view("g0"),
  submitMove: (r) => r.games.move("g0", { type: "resign" }, { token: "t" }),
  claimSeat: (r) => r.games.claim("g0", 0, "ann"),
  reissueToken: (r) => r.games.reissue("g0", 0, { ownerToken: "t" }),
  postChat: (r) => r.games.chat("g0", "hello", { token: "t" }),
  listChat: (r) => r.games.chatMessages("g0"),
  hideChat: (r) => r.games.hideChat("g0", 7, { ownerToken: "t" }),
  rematch: (r) => r.games.rematch("g0", { token: "t" }),
  getSeries: (r) => r.games.series("g0"),
  listEvents: (r) => r.games.events("g0"),
  streamEvents: async (r) => { for await (const _ of r.games.stream("g0")) break; },
  replayGame: (r) => r.games.replay("g0"),
  broadcastGame: (r) => r.games.broadcast("g0"),
  gameLog: (r) => r.games.log("g0"),
  auditGame: (r) => r.games.audit("g0"),
  gameDeliveries: (r) => r.games.deliveries("g0", { ownerToken: "t" }),
  listBots: (r) => r.bots.list(),
  registerBot: (r) => r.bots.register({ name: "b", rulesets: ["bang-dice"] }),
  getBot: (r) => r.bots.get("b0", { token: "t" }),
  deleteBot: (r) => r.bots.delete("b0", { token: "t" }),
  botTurns: async (r) => { for await (const _ of r.bots.turns("b0", { token: "t" })) break; },
  answerTurn: (r) => r.bots.answer("b0", "d0", { type: "resign" }, { token: "t" }),
  listTournaments: (r) => r.tournaments.list(),
  createTournament: (r) => r.tournaments.create({ ruleset: "bang-dice", entrants: ["random", "random"], games: 1,
                                                  players: 2 }),
  getTournament: (r) => r.tournaments.get("t0"),
  cancelTournament: (r) => r.tournaments.cancel("t0", { token: "t" }),
  signingKeys: (r) => r.keys(),
  transparencyCheckpoint: (r) => r.transparency.checkpoint(),
  transparencyInclusion: (r) => r.transparency.inclusion("g0"),
  transparencyConsistency: (r) => r.transparency.consistency(0),
  health: (r) => r.health(),
  metrics: (r) => r.metrics(),
  contract: (r) => r.openapi(),
  searchArchive: (r) => r.archive.search({ seat: "ann" }),
  exportArchive: (r) => r.archive.export({ bot: "random" }),
  listLadders: (r) => r.ladder.ladders(),
  getLadder: (r) => r.ladder.ladder("bang-dice", { limit: 5 }),
  getBotProfile: (r) => r.ladder.botProfile("random"),
  getPool: (r) => r.ladder.pool("bang-dice"),
  putInPool: (r) => r.ladder.join("bang-dice", "b0", {}, { token: "t" }),
  leavePool: (r) => r.ladder.leave("bang-dice", "b0", { token: "t" }),
};

const live = refereeForFile();

/** @returns {Array<{operationId: string, method: string, template: string}>} every operation of the contract */
function operations() {
  const spec = parse(readFileSync(CONTRACT, "utf8"));
  return Object.entries(spec.paths).flatMap(([template, item]) =>
    METHODS.filter((method) => method in /** @type {object} */ (item)).map((method) => ({
      operationId: /** @type {Record<string, {operationId: string}>} */ (item)[method].operationId,
      method: method.toUpperCase(), template,
    })));
}

/** @param {string} template a path of the contract, `{name}` for a parameter */
function pattern(template) {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replace(/\{[^}]+\}/g, "[^/]+")}$`);
}

test("the table names every operation of openapi.yaml, and no other", () => {
  assert.deepEqual(Object.keys(CALLS).sort(), operations().map((op) => op.operationId).sort());
});

for (const op of operations()) {
  test(`${op.operationId}: ${op.method} ${op.template} has a client method`, async () => {
    /** @type {Array<{method: string, path: string}>} */
    const sent = [];
    const referee = new Referee({
      baseUrl: live.url, retry: { attempts: 1 },
      fetch: (input, init) => {
        sent.push({ method: init?.method ?? "GET", path: new URL(String(input)).pathname });
        return fetch(input, init);
      },
    });
    const call = CALLS[op.operationId];
    assert.ok(call, `no client call for ${op.operationId}`);
    await call(referee).catch(() => undefined); // a made-up id's 404 is an answer of that route too
    assert.equal(sent.length, 1);
    assert.equal(sent[0].method, op.method);
    assert.match(sent[0].path, pattern(op.template));
  });
}
