/**
 * `epicwar serve` when its writes fail, then succeed again: the disk full, then space freed.
 *
 * The failure is real and needs no privilege: the server runs as a process of its own, and the test lowers that
 * process's soft limit on the size of a file it writes (RLIMIT_FSIZE, `prlimit --pid`) to the size its LevelDB's
 * write-ahead log already has. The next write to that file stops at the limit and fails with EFBIG (Node ignores
 * SIGXFSZ), as a write to a full disk stops part-way with ENOSPC. Raising the soft limit back to the hard one (any
 * process may do that for its own user) is the space freed. Unlike a tmpfs or a loop device, this needs no mount and
 * no root, and the moment of the failure is exact.
 */
import { execFileSync } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { seedCommitment } from "../../src/crypto/commitments.js";
import { ashfallSetup, auth, CAMPAIGN } from "../server/support.js";
import { tempDir } from "../support/tmp.js";
import { epicwar, epicwarDone, keptLine, type CliProcess, type Machine } from "./cli-process.js";

interface Answer {
  status: number;
  body: { seq?: number; error?: string; message?: string; events?: Array<{ seq: number; hash: string; type: string }> };
}

/** A served folder: the server process, its URL and the tokens of the operator and of Ashfall's seats. */
interface Served {
  serve: CliProcess;
  url: string;
  tokens: Record<string, string>;
}

async function call(url: string, method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  const response = await fetch(url + path, {
    method,
    headers: { ...(token ? auth(token) : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

async function serveFolder(machine: Machine): Promise<CliProcess & { url: Promise<string> }> {
  const serve = epicwar(["serve", "--db", "war", "--port", "0"], machine);
  const url = serve.line(/^Serving /).then((line) => /at (http:\/\/127\.0\.0\.1:\d+) /.exec(line)![1]!);
  return Object.assign(serve, { url });
}

/** Starts a server on a fresh folder, creates Ashfall through it and redeems every seat's invite. */
async function servedAshfall(machine: Machine): Promise<Served> {
  const serve = await serveFolder(machine);
  const url = await serve.url;
  const operator = (await keptLine(serve, machine.cwd, "Operator token")).split(": ")[1]!;
  const created = await call(url, "POST", "/campaigns", operator, await ashfallSetup());
  expect(created.status).toBe(201);
  const tokens: Record<string, string> = {};
  for (const [seat, invite] of Object.entries((created.body as { invites: Record<string, string> }).invites)) {
    const session = await call(url, "POST", "/session", undefined, { invite });
    tokens[seat] = (session.body as { token: string }).token;
  }
  return { serve, url, tokens };
}

/** The size of the LevelDB's write-ahead log: its one `.log` file (LevelDB starts a new one at every open). */
async function writeAheadLogSize(db: string): Promise<number> {
  const logs = (await readdir(db)).filter((name) => /^\d+\.log$/.test(name)).sort();
  return (await stat(join(db, logs.at(-1)!))).size;
}

/** Sets the soft limit on the size of a file the process may write: a number of bytes, or "unlimited". */
function limitFileSize(pid: number, bytes: number | "unlimited"): void {
  execFileSync("prlimit", ["--pid", String(pid), `--fsize=${bytes}:`]);
}

/** The organiser's next command: pause and resume in turn, each an event every seat sees. */
const organiserCommand = (n: number) =>
  n % 2 === 0
    ? { actor: "host", type: "PauseCampaign", reason: `break ${n}` }
    : { actor: "host", type: "ResumeCampaign" };

async function campaignSeq(served: Served): Promise<number> {
  const state = await call(served.url, "GET", `/campaigns/${CAMPAIGN}/state`, served.tokens["host"]);
  return (state.body as { seq: number }).seq;
}

const until = async <T>(what: string, seconds: number, attempt: () => Promise<T | undefined>): Promise<T> => {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Waits until the server's log (its stderr) has a line that matches. */
const logged = (serve: CliProcess, what: RegExp) =>
  until(`a server's log line ${what}`, 30, async () => (what.test(serve.err()) ? true : undefined));

describe("a full disk under epicwar serve", () => {
  it("answers no command 2xx that a restart would not find, and reuses no seq, when writes fail and then succeed", async () => {
    const home = await tempDir();
    const machine = { cwd: home, home };
    const served = await servedAshfall(machine);
    const pid = served.serve.child.pid!;
    /** Every event a 2xx answer acknowledged: seq -> hash. */
    const acknowledged = new Map<number, string>();
    let seq = await campaignSeq(served);
    let sent = 0;
    const send = async (): Promise<Answer> => {
      const answer = await call(served.url, "POST", `/campaigns/${CAMPAIGN}/commands`, served.tokens["host"], {
        expectedSeq: seq,
        commands: [organiserCommand(sent)],
      });
      if (answer.status === 200) {
        for (const event of answer.body.events!) acknowledged.set(event.seq, event.hash);
        seq = answer.body.seq!;
        sent++;
      }
      return answer;
    };
    try {
      for (let i = 0; i < 4; i++) expect((await send()).status).toBe(200);

      // A little room left: the next batch is written in part, as on a disk that fills up during the write.
      limitFileSize(pid, (await writeAheadLogSize(join(home, "war"))) + 100);
      const failed = await send();
      expect(failed.status).toBe(503);
      expect(failed.body.error).toBe("unavailable");
      expect(failed.body.message).toMatch(/file too large|EFBIG/i);
      // The disk stays full, so that no file can grow at all: the server's own tries to reopen its log fail too, and
      // no command is acknowledged meanwhile; each is told why.
      limitFileSize(pid, 1);
      for (let i = 0; i < 3; i++) expect((await send()).status).toBe(503);
      await logged(served.serve, /cannot reopen/);
      expect((await send()).status).toBe(503);
      // Reads go on meanwhile: the log stays open while its reopen could not write what the open writes.
      const read = await call(served.url, "GET", `/campaigns/${CAMPAIGN}/state`, served.tokens["host"]);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect((read.body as { seq: number }).seq).toBe(seq);

      limitFileSize(pid, "unlimited");
      // The space is freed: the server reopens its log by itself and takes commands again; nobody restarts it.
      for (let i = 0; i < 6; i++)
        await until("a command acknowledged after the space was freed", 30, async () => {
          const answer = await send();
          expect([200, 503]).toContain(answer.status);
          return answer.status === 200 ? answer : undefined;
        });
      const lastAcknowledged = Math.max(...acknowledged.keys());
      expect(lastAcknowledged).toBe(seq);

      served.serve.child.kill("SIGKILL");
      await served.serve.exited;
      const verified = await epicwarDone(["verify", "--db", "war"], machine);
      expect(verified.stdout).toContain(`${CAMPAIGN}: intact, ${lastAcknowledged} events`);

      const restarted = await serveFolder(machine);
      try {
        const again = { ...served, serve: restarted, url: await restarted.url };
        expect(await campaignSeq(again)).toBe(lastAcknowledged);
        const log = await call(again.url, "GET", `/campaigns/${CAMPAIGN}/log`, served.tokens["host"]);
        const stored = new Map(
          (log.body as { events: Array<{ seq: number; hash: string }> }).events.map((e) => [e.seq, e.hash]),
        );
        // Every acknowledged event is the one stored at its seq: none lost, none replaced by a later one.
        for (const [at, hash] of acknowledged) expect(stored.get(at), `seq ${at}`).toBe(hash);
        const next = await call(again.url, "POST", `/campaigns/${CAMPAIGN}/commands`, served.tokens["host"], {
          expectedSeq: lastAcknowledged,
          commands: [organiserCommand(sent)],
        });
        expect(next.status).toBe(200);
        expect(next.body.events![0]!.seq).toBe(lastAcknowledged + 1);
      } finally {
        await restarted.stop();
      }
    } finally {
      await served.serve.stop();
    }
  });

  it("fails a command whose batch, with the host's step it made due, meets a full disk, in full; takes it again once writes succeed, with no restart", async () => {
    const home = await tempDir();
    const machine = { cwd: home, home };
    const served = await servedAshfall(machine);
    const pid = served.serve.child.pid!;
    const db = join(home, "war");
    try {
      const commitSeed = async (player: string, expectedSeq: number) =>
        call(served.url, "POST", `/campaigns/${CAMPAIGN}/commands`, served.tokens[player], {
          expectedSeq,
          commands: [{ actor: player, type: "CommitSeed", seedHash: seedCommitment(`${player}-seed`.padEnd(64, "0")) }],
        });
      const before = await writeAheadLogSize(db);
      const first = await commitSeed("concord", await campaignSeq(served));
      expect(first.status).toBe(200);
      const oneCommitment = (await writeAheadLogSize(db)) - before;
      // Room for the other player's commitment (the same event for a shorter name), and for a few bytes of the host's
      // StartTurn that the server decides with it and writes in its batch: the batch is written in part and fails.
      limitFileSize(pid, (await writeAheadLogSize(db)) + oneCommitment + 40);
      const second = await commitSeed("horde", first.body.seq!);
      expect(second.status, JSON.stringify(second.body)).toBe(503);
      expect(second.body.message).toMatch(/file too large|EFBIG/i);
      // No file may grow until the server has tried to reopen its log (unless it did so before this limit).
      limitFileSize(pid, 1);
      await logged(served.serve, /cannot reopen|is reopened/);

      limitFileSize(pid, "unlimited");
      // The same command again, as its client sends it once writes succeed: nothing of the failed batch was kept, and
      // the host's step is taken in the new one.
      const again = await until("the horde's commitment taken again", 30, async () => {
        const answer = await commitSeed("horde", first.body.seq!);
        expect([200, 503], JSON.stringify(answer.body)).toContain(answer.status);
        return answer.status === 200 ? answer : undefined;
      });
      expect(again.body.events!.map((event) => [event.seq, event.type])).toEqual([
        [first.body.seq! + 1, "PlayerSeedCommitted"],
        [first.body.seq! + 2, "TurnStarted"],
      ]);
    } finally {
      await served.serve.stop();
    }
  });
});
