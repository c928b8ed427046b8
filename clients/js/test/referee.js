/* A real referee for the tests: a throwaway redis-server on a free port and
   `referee serve` (the venv's, or $REFEREE_BIN) on another, stopped when the
   test file ends. Settings go in as REFEREE_* environment variables
   (docs/operations.md). */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
/** the admin token of every referee started here */
export const ADMIN = "js-admin";

/** @returns {Promise<number>} a port free now */
export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** @param {number} ms */
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

/** The `referee` command: $REFEREE_BIN, else the checkout's .venv. */
function refereeBin() {
  const bin = process.env.REFEREE_BIN ?? join(ROOT, ".venv", "bin", "referee");
  if (!existsSync(bin)) throw new Error(`no referee at ${bin}: run \`make install\` or set REFEREE_BIN`);
  return bin;
}

/**
 * Wait until `probe` holds (or a child exits), up to `seconds`.
 * @param {() => Promise<boolean>} probe
 * @param {import("node:child_process").ChildProcess[]} children
 * @param {number} seconds
 * @param {string} what
 */
async function until(probe, children, seconds, what) {
  const tries = seconds * 20;
  for (let i = 0; i < tries; i++) {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${what}: ${child.spawnargs.join(" ")} exited (${child.exitCode ?? child.signalCode})`);
      }
    }
    if (await probe().catch(() => false)) return;
    await pause(50);
  }
  throw new Error(`${what}: not ready in ${seconds} s`);
}

/** @param {number} port */
function redisAnswers(port) {
  return new Promise((done) => {
    import("node:net").then(({ connect }) => {
      const socket = connect(port, "127.0.0.1");
      socket.setTimeout(1000);
      socket.on("connect", () => socket.write("PING\r\n"));
      socket.on("data", (data) => { socket.destroy(); done(data.toString().startsWith("+PONG")); });
      socket.on("error", () => done(false));
      socket.on("timeout", () => { socket.destroy(); done(false); });
    });
  });
}

/**
 * A running referee.
 * @typedef {object} Live
 * @property {string} url
 * @property {() => Promise<void>} stop
 */

/**
 * Start a referee of its own (and its Redis); `settings` are more REFEREE_*
 * variables; `worker`: a `referee worker` too (bots' turns, tournaments).
 * @param {Record<string, string>} [settings]
 * @param {{worker?: boolean}} [also]
 * @returns {Promise<Live>}
 */
export async function startReferee(settings = {}, { worker = false } = {}) {
  const redisPort = await freePort();
  const redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "",
                                       "--appendonly", "no"], { stdio: "ignore" });
  /** @type {import("node:child_process").ChildProcess[]} */
  const children = [redis];
  // SIGINT, Ctrl+C: `referee serve` (gunicorn) stops at once; its SIGTERM, a
  // graceful stop, waits up to 5 s for every connection, the idle ones this
  // process's fetch keeps alive too (a worker and Redis stop alike on either)
  const stop = async () => {
    for (const child of children.slice().reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const gone = new Promise((done) => child.once("exit", done));
      child.kill("SIGINT");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15000);
      await gone;
      clearTimeout(timer);
    }
  };
  try {
    await until(() => redisAnswers(redisPort), children, 30, "redis-server");
    const port = await freePort();
    const env = {
      ...process.env, REDIS_URL: `redis://127.0.0.1:${redisPort}/0`, REFEREE_ADMIN_TOKEN: ADMIN,
      REFEREE_RATE_LIMIT: "off", ...settings,
    };
    const referee = spawn(refereeBin(), ["serve", "--port", String(port), "--workers", "1"],
                          { env, stdio: ["ignore", "ignore", "inherit"] });
    children.push(referee);
    if (worker) children.push(spawn(refereeBin(), ["worker"], { env, stdio: ["ignore", "ignore", "inherit"] }));
    const url = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${url}/health`)).ok, children, 120, "referee serve");
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * A referee of this test file's own: started before its tests, stopped
 * after them (node:test's hooks); `url` once it is up, and `started` is
 * called with it then.
 * @param {Record<string, string>} [settings]
 * @param {{worker?: boolean}} [also]
 * @param {(url: string) => void} [started]
 * @returns {{readonly url: string}}
 */
export function refereeForFile(settings = {}, also = {}, started = () => {}) {
  /** @type {Live | undefined} */
  let live;
  before(async () => {
    live = await startReferee(settings, also);
    started(live.url);
  });
  after(() => live?.stop());
  return {
    get url() {
      if (!live) throw new Error("the referee is not started yet: use it in a test or a later hook");
      return live.url;
    },
  };
}
