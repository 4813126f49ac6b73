/**
 * D2, the organiser's own key: the organiser acts as the host, but its commands (O1, O2, the T5 close) are signed by a
 * key made on its own machine, apart from the host's key, which signs the host's steps (on a server, the server's key,
 * kept with the host's dice seeds). Neither can pass off its acts as the other's.
 */
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditStream } from "../../replays/audit-load.js";
import type { AuditReport } from "../../replays/audit-report.js";
import { renderAudit } from "../../replays/audit-text.js";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { RemoteCampaign, type RemoteOutcome } from "../../src/client/remote.js";
import { MemorySecrets, type SecretKeeper } from "../../src/client/secrets.js";
import { ServerConnection } from "../../src/client/server.js";
import { Table } from "../../src/client/table.js";
import { renderState } from "../../src/cli/render.js";
import { showRawLog } from "../../src/cli/commands/show.js";
import { signedText, signText, type HeldKey, type SeatKey } from "../../src/crypto/signatures.js";
import { verifySignature } from "../../src/crypto/verify-node.js";
import { Engine } from "../../src/engine/engine.js";
import { checkCommand } from "../../src/engine/command-schemas.js";
import { checkSignature } from "../../src/rules/seat-keys.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { setupCommands } from "../../src/setup/setup-file.js";
import type { CampaignView } from "../../src/views/view.js";
import type { EventStore } from "../../src/log/event-store.js";
import { tempDir } from "../support/tmp.js";
import { runInProcess, show } from "../support/cli.js";
import { auth, CAMPAIGN, startTestServer, type TestServer } from "../server/support.js";

const VERIFIER = fileURLToPath(new URL("../../tools/verify_log.py", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../golden/fixtures/action-close.json", import.meta.url));

/** A command signed by `key` at the line's seq, as a client signs it (docs/signatures.md). */
async function signedBy(key: HeldKey, state: CampaignView, line: string, command: Record<string, unknown>) {
  const point = { campaign: state.campaign!, line, seq: state.seq, view: null };
  return {
    ...command,
    signature: { seq: state.seq, view: null, value: await signText(key, signedText(point, command)) },
  };
}

/** tools/verify_log.py on a line's raw log: its exit status and what it printed. */
async function verifier(store: EventStore, stream: string): Promise<{ status: number | null; stdout: string }> {
  const raw: string[] = [];
  await showRawLog(store, stream, (text) => raw.push(text));
  const run = spawnSync("python3", [VERIFIER, "-"], { input: raw.join("\n") + "\n", encoding: "utf8" });
  return { status: run.status, stdout: run.stdout + run.stderr };
}

describe("the organiser's key on a server (D2)", () => {
  let server: TestServer;
  let url: string;
  /** The organiser's first machine's secrets: its key. */
  const organiserSecrets = new MemorySecrets();
  /** A machine of a seat: a Table over the server with its own secrets (and so its own keys). */
  const client = (seat: string, secrets: SecretKeeper = new MemorySecrets()) =>
    new Table<CampaignView, RemoteOutcome>(
      new RemoteCampaign(new ServerConnection(url, server.tokens[seat]!)),
      CAMPAIGN,
      {
        parties: new Set([seat]),
        secrets,
        chores: seat !== "host",
        random: sequenceRandomHex(`organiser-key-${seat}`),
      },
    );
  const post = (seat: string, expectedSeq: number, commands: unknown[]) =>
    server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/commands`,
      headers: auth(server.tokens[seat]!),
      payload: { expectedSeq, commands },
    });

  beforeAll(async () => {
    server = await startTestServer();
    await server.app.listen({ host: "127.0.0.1", port: 0 });
    url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    // Both players register their keys and play up to the initiative winner's choice; the server's key is the host's.
    const players = ["concord", "horde"].map((p) => client(p));
    for (let round = 0; round < 10; round++) for (const player of players) await player.takeChores();
  });

  afterAll(async () => {
    await server.close();
  });

  it("signs the organiser's commands with the organiser's own key, registered with its first, and refuses one signed by the host's key", async () => {
    const organiser = client("host", organiserSecrets);
    const paused = await organiser.submit({ actor: "host", type: "PauseCampaign", reason: "a word with both sides" });
    expect(paused.ok, JSON.stringify(paused)).toBe(true);
    const events = paused.ok ? paused.events : [];
    const ownKey = (await organiserSecrets.seatKey("organiser"))!;
    expect(events.map((e) => [e.type, e.actor])).toEqual([
      ["SeatKeyRegistered", "host"],
      ["CampaignPaused", "host"],
    ]);
    expect(events[0]!.data).toEqual({ party: "organiser", publicKey: ownKey.publicKey, replaces: null });
    // Each event keeps its signed command, which verifies by the organiser's key and not by the host's.
    const stored = await server.engine.store.readAll(CAMPAIGN);
    const pause = stored.find((e) => e.seq === events[1]!.seq)!;
    expect(verifySignature(ownKey.publicKey, pause.command!.signed, pause.command!.signature)).toBe(true);
    const state = await server.engine.state(CAMPAIGN);
    expect(state.seatKeys!["organiser"]!.publicKey).not.toBe(state.seatKeys!["host"]!.publicKey);

    // The server's own key (the host's, kept with its dice seeds) can no longer give the organiser's commands.
    const hostFile = JSON.parse(await readFile(join(server.dir, "db-secrets", CAMPAIGN, "host.json"), "utf8")) as {
      seatKey: SeatKey;
    };
    expect(hostFile.seatKey.publicKey).toBe(state.seatKeys!["host"]!.publicKey);
    const resume = await signedBy(hostFile.seatKey, state, CAMPAIGN, { actor: "host", type: "ResumeCampaign" });
    const refused = await post("host", state.seq, [resume]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: "refused", rule: "D2", field: "signature" });
    expect(refused.json<{ message: string }>().message).toMatch(
      /not by organiser's key in force .*signed by the organiser's own key, not the host's/,
    );
    expect((await server.engine.state(CAMPAIGN)).seq).toBe(state.seq);
    // Unsigned, it is refused too: the organiser has a key in force.
    const unsigned = await post("host", state.seq, [{ actor: "host", type: "ResumeCampaign" }]);
    expect(unsigned.json()).toMatchObject({ error: "refused", rule: "D2", field: "signature" });

    // The organiser's token cannot put a key in force for the host's steps: that key is the server's.
    const hostKey = await post("host", state.seq, [
      { actor: "host", type: "RegisterSeatKey", publicKey: "ab".repeat(32) },
    ]);
    expect(hostKey.statusCode).toBe(403);
    expect(hostKey.json()).toMatchObject({ field: "commands[0].role" });

    // The organiser's machine resumes, signed by its key; the audit names who signed each organiser's event.
    expect((await organiser.submit({ actor: "host", type: "ResumeCampaign" })).ok).toBe(true);
    const audit = await server.app.inject({
      url: `/campaigns/${CAMPAIGN}/audit`,
      headers: auth(server.tokens["host"]!),
    });
    const report = audit.json<AuditReport>();
    expect(report.ok, renderAudit(report).join("\n")).toBe(true);
    const resumed = (await server.engine.state(CAMPAIGN)).seq;
    expect(report.signatures.organiser).toEqual([
      { seq: events[0]!.seq, type: "SeatKeyRegistered", signedBy: "organiser" },
      { seq: events[1]!.seq, type: "CampaignPaused", signedBy: "organiser" },
      { seq: resumed, type: "CampaignResumed", signedBy: "organiser" },
    ]);
    expect(renderAudit(report).join("\n")).toContain(
      `the organiser's CampaignPaused (seq ${events[1]!.seq}): signed by the organiser's key`,
    );
    const verified = await verifier(server.engine.store, CAMPAIGN);
    expect(verified.status, verified.stdout).toBe(0);
    expect(verified.stdout).toContain(
      `the organiser's CampaignResumed (seq ${resumed}): signed by the organiser's key`,
    );
  });

  it("warns every seat when the organiser's key is replaced, and the organiser's old machine of a key not its own", async () => {
    const before = await server.engine.state(CAMPAIGN);
    const first = before.seatKeys!["organiser"]!.publicKey;
    // The organiser on another device (or someone who took its token) puts a new key in force.
    const second = client("host");
    const replaced = await second.submit({ actor: "host", type: "RegisterSeatKey", role: "organiser" });
    expect(replaced.ok, JSON.stringify(replaced)).toBe(true);
    const registered = replaced.ok ? replaced.events[0]! : undefined;
    expect(registered).toMatchObject({ type: "SeatKeyRegistered", data: { party: "organiser", replaces: first } });
    for (const seat of ["host", "concord", "horde"]) {
      const read = await server.app.inject({
        url: `/campaigns/${CAMPAIGN}/state`,
        headers: auth(server.tokens[seat]!),
      });
      const state = read.json<{ state: CampaignView }>().state;
      expect(state.seatKeys!["organiser"]!.replacements).toEqual([{ seq: registered!.seq, turn: 1 }]);
      expect(renderState(state)).toContain(`WARNING: organiser's key was replaced at seq ${registered!.seq} (turn 1)`);
      const audit = await server.app.inject({
        url: `/campaigns/${CAMPAIGN}/audit`,
        headers: auth(server.tokens[seat]!),
      });
      const report = audit.json<AuditReport>();
      expect(report.signatures.replacements).toEqual([
        { party: "organiser", seq: registered!.seq, at: registered!.at },
      ]);
      expect(renderAudit(report).join("\n")).toContain(
        `WARNING: organiser's key was replaced at seq ${registered!.seq}`,
      );
    }
    // The machine that holds the first key is told its key is no longer the one in force, and sends nothing.
    const warned = await client("host", organiserSecrets).submit({ actor: "host", type: "PauseCampaign" });
    expect(warned).toMatchObject({ ok: false, refusal: { rule: "D2" } });
    expect(!warned.ok && warned.refusal.message).toMatch(
      /organiser's key in force .* is not the one this machine holds/,
    );
    expect(!warned.ok && warned.refusal.message).toContain('"role":"organiser"');
  });
});

describe("the organiser's CLI on a server (D2)", () => {
  it("apply --server with the host's token makes the organiser's key in its secrets folder and signs the pause with it", async () => {
    const server = await startTestServer();
    try {
      await server.app.listen({ host: "127.0.0.1", port: 0 });
      const url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
      const dir = await tempDir("epicwar-organiser-cli-");
      const pause = JSON.stringify({ actor: "host", type: "PauseCampaign", reason: "from the CLI" });
      const run = await runInProcess(["--server", url, "apply", "-", "--secrets", dir], pause, {
        env: { EPICWAR_TOKEN: server.tokens["host"]! },
      });
      expect(run.code, show(run)).toBe(0);
      const kept = JSON.parse(await readFile(join(dir, CAMPAIGN, "organiser.json"), "utf8")) as { seatKey: SeatKey };
      const state = await server.engine.state(CAMPAIGN);
      expect(state.paused?.reason).toBe("from the CLI");
      expect(state.seatKeys!["organiser"]!.publicKey).toBe(kept.seatKey.publicKey);
      const stored = await server.engine.store.readAll(CAMPAIGN);
      const paused = stored.find((e) => e.seq === state.paused!.seq)!;
      expect(verifySignature(kept.seatKey.publicKey, paused.command!.signed, paused.command!.signature)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("the organiser's commands in a log from before its key (D2)", () => {
  it("takes them signed by the host's key or unsigned, audits them as such, and once the organiser has a key refuses the host's", async () => {
    // A clock a second on at each batch: each command is decided at a time of its own.
    let tick = 0;
    const engine = await Engine.open(join(await tempDir("epicwar-organiser-key-"), "db"), {
      clock: () => new Date(Date.parse("2026-03-01T12:00:00Z") + 1000 * tick++),
    });
    try {
      const setup = await loadSetupFile(FIXTURE);
      expect((await engine.create(setupCommands(setup).map((step) => step.command))).ok).toBe(true);
      const campaign = setup.campaign;
      const secrets = new MemorySecrets();
      const table = new Table(engine, campaign, { secrets, random: sequenceRandomHex("organiser-legacy") });
      await table.takeChores();
      const hostKey = (await secrets.seatKey("host"))!;
      // As a server signed the organiser's commands before the organiser had a key: with the host's key.
      let state = await engine.state(campaign);
      const legacy = await engine.execute(campaign, [
        await signedBy(hostKey, state, campaign, { actor: "host", type: "PauseCampaign" }),
      ]);
      expect(legacy.ok, JSON.stringify(legacy)).toBe(true);
      const unsigned = await engine.execute(campaign, [{ actor: "host", type: "ResumeCampaign" }]);
      expect(unsigned.ok, JSON.stringify(unsigned)).toBe(true);
      const [paused, resumed] = [legacy, unsigned].map((outcome) => (outcome.ok ? outcome.events[0]!.seq : 0));

      // Now the organiser's machine acts: its key comes into force with its command, and the host's no longer serves.
      expect((await table.submit({ actor: "host", type: "PauseCampaign" })).ok).toBe(true);
      state = await engine.state(campaign);
      const forged = await engine.execute(campaign, [
        await signedBy(hostKey, state, campaign, { actor: "host", type: "ResumeCampaign" }),
      ]);
      expect(forged).toMatchObject({ ok: false, refusal: { kind: "rule", rule: "D2", field: "signature" } });
      expect((await engine.state(campaign)).seq).toBe(state.seq);
      // Nor does the organiser's key sign a host's step.
      const organiserKey = (await secrets.seatKey("organiser"))!;
      const step = checkCommand(
        await signedBy(organiserKey, state, campaign, {
          actor: "host",
          type: "StartTurn",
          hostSeedHash: "0".repeat(64),
        }),
      );
      expect(step.ok, JSON.stringify(step)).toBe(true);
      const check = checkSignature(
        state,
        step.ok ? step.command : (undefined as never),
        { line: campaign, seq: state.seq },
        verifySignature,
      );
      expect(check).toMatchObject({ ok: false, refusal: { rule: "D2", field: "signature" } });
      expect(!check.ok && check.refusal.message).toMatch(/not by host's key in force/);

      // The organiser's key is never the host's, and only the host registers one.
      const hostAsOrganiser = {
        actor: "host",
        type: "RegisterSeatKey",
        role: "organiser",
        publicKey: hostKey.publicKey,
      };
      expect(await engine.execute(campaign, [await signedBy(hostKey, state, campaign, hostAsOrganiser)])).toMatchObject(
        {
          ok: false,
          refusal: {
            kind: "rule",
            rule: "D2",
            field: "publicKey",
            message: expect.stringMatching(/host's key in force/),
          },
        },
      );
      const playerAsOrganiser = { ...hostAsOrganiser, actor: "red", publicKey: organiserKey.publicKey };
      expect(await engine.execute(campaign, [playerAsOrganiser])).toMatchObject({
        ok: false,
        refusal: { kind: "field", field: "role" },
      });
      expect((await engine.state(campaign)).seq).toBe(state.seq);

      const report = await auditStream(engine.store, campaign);
      expect(report.findings).toEqual([]);
      expect(report.signatures.organiser.slice(0, 2)).toEqual([
        { seq: paused, type: "CampaignPaused", signedBy: "host" },
        { seq: resumed, type: "CampaignResumed", signedBy: null },
      ]);
      expect(report.signatures.unsigned["organiser"]).toBe(1);
      const words = renderAudit(report).join("\n");
      expect(words).toContain(
        `the organiser's CampaignPaused (seq ${paused}): signed by the host's key (before the organiser had a key of its own)`,
      );
      expect(words).toContain(
        `the organiser's CampaignResumed (seq ${resumed}): unsigned (no organiser's key in force yet)`,
      );
      const verified = await verifier(engine.store, campaign);
      expect(verified.status, verified.stdout).toBe(0);
      expect(verified.stdout).toContain(`the organiser's CampaignPaused (seq ${paused}): signed by the host's key`);
      expect(verified.stdout).toContain(`the organiser's CampaignResumed (seq ${resumed}): unsigned`);
    } finally {
      await engine.close();
    }
  });

  it("resumes a campaign paused before the organiser had a key: its key is registered with the resume (O1 lets it)", async () => {
    const engine = await Engine.open(join(await tempDir("epicwar-organiser-resume-"), "db"));
    try {
      const setup = await loadSetupFile(FIXTURE);
      expect((await engine.create(setupCommands(setup).map((step) => step.command))).ok).toBe(true);
      const table = new Table(engine, setup.campaign, { secrets: new MemorySecrets() });
      await table.takeChores();
      expect((await engine.execute(setup.campaign, [{ actor: "host", type: "PauseCampaign" }])).ok).toBe(true);
      const resumed = await table.submit({ actor: "host", type: "ResumeCampaign" });
      expect(resumed.ok, JSON.stringify(resumed)).toBe(true);
      expect(resumed.ok && resumed.events.map((e) => e.type)).toEqual(["SeatKeyRegistered", "CampaignResumed"]);
      expect((await engine.state(setup.campaign)).paused).toBeUndefined();
    } finally {
      await engine.close();
    }
  });
});
