/* outbound_bot.mjs: a bot written with the JavaScript client, playing from
   behind NAT (no public URL): it connects to the referee for its turns,
   checks each turn's signature, and answers with a legal move.

     node examples/outbound_bot.mjs --register jsbot --ruleset bang --pool bang
     node examples/outbound_bot.mjs --bot-id bot_… --secret … --pool bang

   --url (default: REFEREE_URL, else http://127.0.0.1:8000). Ctrl+C takes it
   out of the pool and stops it. Edit choose() to make it yours. */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { parseArgs } from "node:util";
import { NotFound, Referee } from "../clients/js/src/index.js";

const { values: args } = parseArgs({ options: {
  url: { type: "string", default: process.env.REFEREE_URL ?? "http://127.0.0.1:8000" },
  register: { type: "string" }, ruleset: { type: "string", multiple: true, default: [] },
  "bot-id": { type: "string" }, secret: { type: "string" },
  pool: { type: "string" }, "games-at-once": { type: "string" },
} });

/** The same turn gets the same answer (a game replays the same): a legal move picked by the turn's hash. */
function choose(view, legalMoves) {
  const moves = legalMoves.filter((m) => m.type !== "resign");
  const pick = createHash("sha256").update(`${view.id}:${view.version}:${view.seat}`).digest().readUInt32BE(0);
  return (moves.length ? moves : legalMoves)[pick % (moves.length || legalMoves.length)];
}

/** The referee signs each turn as it signs a webhook call: HMAC-SHA256 of "<timestamp>.<body>", fresh for 5 minutes. */
function signed(secret, turn) {
  const expected = "sha256=" + createHmac("sha256", secret).update(`${turn.timestamp}.${turn.body}`).digest("hex");
  const fresh = Math.abs(Date.now() / 1000 - turn.timestamp) <= 300;
  return fresh && expected.length === turn.signature.length
    && timingSafeEqual(Buffer.from(expected), Buffer.from(turn.signature));
}

const referee = new Referee({ baseUrl: args.url });
let [botId, secret] = [args["bot-id"], args.secret];
if (args.register) {
  ({ id: botId, secret } = await referee.bots.register({ name: args.register, rulesets: args.ruleset }));
  console.log(`registered outbound bot ${botId} (${args.register}); its secret, shown once: ${secret}`);
}
if (!botId || !secret) {
  console.error("give --bot-id and --secret, or --register NAME --ruleset R");
  process.exit(2);
}

const stop = new AbortController();
let pooled = false;
process.once("SIGINT", () => stop.abort());
process.once("SIGTERM", () => stop.abort());

/* connect for the turns first, then go in the pool (turns offered meanwhile wait for the stream) */
const turns = referee.bots.turns(botId, { token: secret, signal: stop.signal });
const first = turns.next();
if (args.pool) {
  const atOnce = args["games-at-once"] ? { games_at_once: Number(args["games-at-once"]) } : {};
  const entry = await referee.ladder.join(args.pool, botId, atOnce, { token: secret });
  pooled = true;
  console.log(`in the ${args.pool} pool, ${entry.games_at_once} games at once`);
}
console.log(`answering ${botId}'s turns from ${args.url} (Ctrl+C stops)`);
try {
  for (let next = await first; !next.done; next = await turns.next()) {
    const turn = next.value;
    if (!signed(secret, turn)) {
      console.error(`turn ${turn.delivery}: bad or stale signature, ignored`);
      continue;
    }
    const { view, legal_moves: legalMoves } = JSON.parse(turn.body);
    try {
      await referee.bots.answer(botId, turn.delivery, choose(view, legalMoves), { token: secret });
    } catch (err) {  /* too late (409 turn_closed): the referee played the turn's default */
      console.error(`turn ${turn.delivery}: ${err.message}`);
    }
  }
} catch (err) {
  if (!stop.signal.aborted) throw err;
} finally {
  if (pooled) {  /* NotFound: taken out already (DELETE) */
    await referee.ladder.leave(args.pool, botId, { token: secret }).then(
      () => console.log(`left the ${args.pool} pool`), (err) => { if (!(err instanceof NotFound)) throw err; });
  }
}
