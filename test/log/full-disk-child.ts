/**
 * Child process for store-full-disk.test.ts: a LevelDB store whose disk is full and stays full, as a file-size limit
 * of its own makes it (`prlimit`, which only a process's own writes obey: the test's threads are left alone). Prints
 * one JSON line per step: what its writes, its reopen and its reads met while the limit holds, then once it is lifted.
 */
import { execFileSync } from "node:child_process";
import { LevelEventStore } from "../../src/log/index.js";
import { deployed, deployedBatch } from "./helpers.js";

const folder = process.argv[2];
if (!folder) {
  process.stderr.write("usage: full-disk-child.ts <folder>\n");
  process.exit(2);
}
const say = (step: string, what: unknown) => process.stdout.write(`${JSON.stringify({ step, ...(what as object) })}\n`);
const outcome = async (work: () => Promise<unknown>) => {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, name: (error as Error).name, code: (error as { code?: string }).code, error: String(error) };
  }
};
const fileSize = (limit: string) => execFileSync("prlimit", [`--pid=${process.pid}`, `--fsize=${limit}`]);

const store = await LevelEventStore.open(folder);
for (let first = 1; first <= 400; first += 20) await store.append("c1", first - 1, deployedBatch(first, 20));
await store.append("c2", 0, [deployed(1)]);
const reads = async () => ({
  c1: await outcome(async () => (await store.readAll("c1")).length),
  c2: await outcome(async () => (await store.storedHead("c2")).seq),
});

// Smaller than the write-ahead log already is: no write to it lands, nor any table the reopen's recovery would write.
fileSize("4096:");
say("append", await outcome(() => store.append("c1", 400, [deployed(401)])));
say("reopen", await outcome(() => store.reopen()));
say("reads", await reads());
say("append again", await outcome(() => store.append("c1", 400, [deployed(401)])));

fileSize("unlimited:");
say("reopen freed", await outcome(() => store.reopen()));
say("reads freed", await reads());
say("append freed", await outcome(async () => (await store.append("c1", 400, [deployed(401)])).map((e) => e.seq)));
await store.close();
