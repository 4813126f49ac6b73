/**
 * The server's own files failing to be written: the host's secrets (its dice seeds) and the seats file. The failure is
 * real: the folder the file goes in is moved away and a plain file put in its place, so that making the folder or
 * writing in it fails (ENOTDIR, EEXIST) as a failing disk would fail it; putting the folder back is the disk mended.
 * (A full disk, under a lowered file-size limit, is test/slow/full-disk.test.ts: it needs a process of its own.)
 */
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auth, CAMPAIGN, headSeq, PlayerClient, startTestServer, type TestServer } from "./support.js";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.close());

/** Puts a plain file where the folder is (the folder moved aside, or never made yet); returns how to mend it. */
async function breakFolder(folder: string): Promise<() => Promise<void>> {
  const aside = `${folder}.aside`;
  const moved = await rename(folder, aside).then(
    () => true,
    () => false,
  );
  await writeFile(folder, "not a folder\n");
  return async () => {
    await rm(folder);
    if (moved) await rename(aside, folder);
    else await mkdir(folder);
  };
}

const until = async (what: string, seconds: number, done: () => Promise<boolean>): Promise<void> => {
  const deadline = Date.now() + seconds * 1000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe("a write of the server's own files that fails", () => {
  it("D1 the host's StartTurn that could not keep its seed is taken again by the server until it lands", async () => {
    const mend = await breakFolder(join(server.dir, "db-secrets"));
    await new PlayerClient(server, "concord").takeChores();
    const [second] = await new PlayerClient(server, "horde").takeChores();
    // The player's commitment stands; the host's step after it could not keep its seed, so it was not sent.
    expect(second!.statusCode).toBe(200);
    expect(second!.json<{ events: Array<{ type: string }> }>().events.map((e) => e.type)).toEqual([
      "PlayerSeedCommitted",
    ]);
    const seq = await headSeq(server);
    expect(server.logLines.some((line) => line.includes("the host's chore in ashfall failed"))).toBe(true);

    await mend();
    // Nobody sends anything: the server tries the step again by itself.
    await until("the host's StartTurn taken", 10, async () => (await server.engine.state(CAMPAIGN)).turnState !== null);
    const events = await server.engine.store.readAll(CAMPAIGN, seq + 1);
    expect(events.map((e) => `${e.actor} ${e.type}`)).toEqual(["host TurnStarted"]);
  });

  it("a seats file that cannot be written is 503 with the reason, and changes nothing: the invite still works after", async () => {
    const invited = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/invites`,
      headers: auth(server.tokens["host"]!),
      payload: { seat: "concord" },
    });
    const { invite } = invited.json<{ invite: string }>();
    const mend = await breakFolder(join(server.dir, "db-server"));

    const refused = await server.app.inject({ method: "POST", url: "/session", payload: { invite } });
    expect(refused.statusCode).toBe(503);
    const body = refused.json<{ error: string; message: string; reason: string }>();
    expect(body.error).toBe("unavailable");
    expect(body.reason).toMatch(/^E(EXIST|NOTDIR): /);
    expect(body.message).toContain(`the server cannot write its seats file (${body.reason})`);
    // The reason names no path of the server's.
    expect(refused.body).not.toContain(server.dir);

    await mend();
    const redeemed = await server.app.inject({ method: "POST", url: "/session", payload: { invite } });
    expect(redeemed.statusCode).toBe(200);
    expect(redeemed.json<{ seat: string }>().seat).toBe("concord");
  });
});
