/**
 * Child process for log-crash.test.ts: opens the store in the folder given as the first argument and appends to stream
 * "crash" until it is killed. Prints "ready <head seq>" once open, then "ack <seq>" after every acknowledged append,
 * where <seq> is the last seq of that append. Appends use the default sync: true.
 */
import { EventStore } from "../../src/log/index.js";
import type { NewEvent } from "../../events/index.js";

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: append-child.ts <folder>\n");
  process.exit(2);
}

const store = await EventStore.open(dir);
let seq = (await store.head("crash")).seq;
process.stdout.write(`ready ${seq}\n`);

for (let i = 0; ; i++) {
  // Batches of 1 to 3 events, so that a kill can land inside a multi-event write.
  const size = 1 + (i % 3);
  const events: NewEvent[] = Array.from({ length: size }, (_, j) => {
    const n = seq + j + 1;
    return {
      type: "ArmyDeployed",
      version: 1,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)).toISOString(),
      actor: `p${process.pid}`,
      data: { army: `a${n}`, at: [n % 1000, (n * 7) % 1000] },
    };
  });
  const stored = await store.append("crash", seq, events);
  seq = stored[stored.length - 1]!.seq;
  process.stdout.write(`ack ${seq}\n`);
}
