/**
 * CPU time of processes on Linux, read from /proc/<pid>/stat, for the load test's CPU per command (bench/load.ts).
 *
 * A process's own figure is its user and system time, all its threads together (LevelDB's and libuv's included). A
 * PostgreSQL cluster's figure is its postmaster's tree: the postmaster's own time, what its children that have ended
 * used (which the kernel adds to the postmaster's "children" times when it reaps them), and what each child alive
 * has used so far (backends, the WAL writer, the checkpointer...). A backend that ends between two readings is
 * counted whole, so the difference of two readings is the cluster's CPU between them.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks a second, the unit of /proc's times: `getconf CLK_TCK`, 100 on every Linux if it cannot be asked. */
const ticksPerSecond = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Stat {
  ppid: number;
  /** Own user + system time, in ms. */
  ownMs: number;
  /** User + system time of the children it has reaped, in ms. */
  reapedMs: number;
}

/** A process's line of /proc/<pid>/stat, or undefined once it has ended. */
function stat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command's name, in parentheses, may hold spaces: the fields are counted after its closing one (field 3 on).
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const ticks = (field: number) => Number(fields[field - 3]);
  const ms = (count: number) => (count * 1000) / ticksPerSecond;
  return { ppid: ticks(4), ownMs: ms(ticks(14) + ticks(15)), reapedMs: ms(ticks(16) + ticks(17)) };
}

/** The CPU time a process has used, its threads together, in ms. */
export function processCpuMs(pid: number): number {
  const found = stat(pid);
  if (!found) throw new Error(`process ${pid} has ended: its CPU time cannot be read`);
  return found.ownMs;
}

/** The CPU time of a process and every child it has or had (one level: a postmaster's), in ms. */
export function treeCpuMs(pid: number): number {
  const root = stat(pid);
  if (!root) throw new Error(`process ${pid} has ended: its CPU time cannot be read`);
  let total = root.ownMs + root.reapedMs;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const child = stat(Number(entry));
    if (child?.ppid === pid) total += child.ownMs + child.reapedMs;
  }
  return total;
}

/** The parent of a process (the postmaster of a PostgreSQL backend). */
export function parentPid(pid: number): number {
  const found = stat(pid);
  if (!found) throw new Error(`process ${pid} has ended`);
  return found.ppid;
}
