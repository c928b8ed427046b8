/* The table chat through the client against a real referee (docs/chat.md):
   a seat's message recorded with its opening, refused when it is not plain
   text or comes from a spectator, hidden by the creator (its text gone for
   everyone but the admin), and a move expecting the version before the talk. */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";

import { Referee, Unauthorized, Unprocessable } from "../src/index.js";
import { ADMIN, refereeForFile } from "./referee.js";

/** @type {Referee} */
let referee;
/** @type {string} */
let base;
const live = refereeForFile({}, {}, (url) => {
  referee = new Referee({ baseUrl: url });
  base = url;
});

test("a seat talks, a spectator may not, the creator hides a message, a move is not stale for the talk", async () => {
  assert.ok(live);
  const game = await referee.games.create({ ruleset: "bang-dice", players: 3, seed: "js-chat" });
  const view = await referee.games.view(game.id);
  const seat = view.to_act[0];
  const token = game.seats[seat].token;
  const said = await referee.games.chat(game.id, "<i>howdy</i>", { token });
  assert.equal(said.text, "<i>howdy</i>");
  const opened = createHash("sha256").update(said.salt + JSON.stringify(said.text)).digest("hex");
  assert.equal(opened, said.said);
  const spectator = await referee.games.chat(game.id, "hi").then(() => null, (e) => e);
  assert.ok(spectator instanceof Unauthorized && spectator.code === "token_required");
  const twoLines = await referee.games.chat(game.id, "a\nb", { token }).then(() => null, (e) => e);
  assert.ok(twoLines instanceof Unprocessable && twoLines.code === "chat_not_plain_text");
  assert.ok(said.seq !== null);  // null only to a spectator of a game shown late
  await referee.games.hideChat(game.id, said.seq, { ownerToken: game.owner_token });
  const page = await referee.games.chatMessages(game.id);
  assert.deepEqual(page.messages.map((m) => [m.seq, m.text, m.hidden]), [[said.seq, null, true]]);
  const admin = new Referee({ baseUrl: base, token: ADMIN });
  assert.equal((await admin.games.chatMessages(game.id)).messages[0].text, "<i>howdy</i>");
  const mine = await referee.games.view(game.id, { token });
  const moved = await referee.games.move(game.id, mine.legal_moves[0], { token, expectedVersion: view.version });
  assert.ok(moved.version > page.version);
});
