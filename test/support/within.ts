/** Waiting in tests for something another process does: polled, and bounded in time. */
import { setTimeout as sleep } from "node:timers/promises";

/** Polls until `done` holds, every 50 ms, for at most `seconds`; else fails naming `what`. */
export async function within(seconds: number, what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await done()); waited += 50) {
    if (waited > seconds * 1000) throw new Error(`${what}: not within ${seconds} s`);
    await sleep(50);
  }
}
