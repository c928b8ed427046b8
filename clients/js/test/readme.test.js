/* The README's example, as written, plays a game to its end against a real
   referee (only its baseUrl is pointed at the one this file starts). */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { promisify } from "node:util";

import { refereeForFile } from "./referee.js";

const live = refereeForFile();

test("the README's 15 lines play a game to its end, its feed printed", async () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(example, "the README has a js example");
  assert.ok(example.split("\n").filter((line) => line.trim()).length <= 16);
  const script = new URL(`./.readme-${process.pid}.mjs`, import.meta.url); // inside the package: its own name resolves
  writeFileSync(script, example.replace("http://127.0.0.1:8000", live.url));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script.pathname], { timeout: 300000 });
    const seqs = stdout.trim().split("\n").filter((line) => /^\d+ \w+$/.test(line)).map((line) => Number(line.split(" ")[0]));
    assert.ok(seqs.length > 10);
    assert.deepEqual(seqs, Array.from({ length: seqs.length }, (_, i) => i + 1)); // the whole feed, in order
  } finally {
    rmSync(script, { force: true });
  }
});
