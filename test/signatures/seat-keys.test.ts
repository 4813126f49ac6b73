import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { auditCampaign } from "../../replays/audit.js";
import { loadAuditInput } from "../../replays/audit-load.js";
import { renderAudit } from "../../replays/audit-text.js";
import { Engine } from "../../src/engine/engine.js";
import { tempDir } from "../support/tmp.js";
import { describe, expect, it } from "vitest";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { Table } from "../../src/client/table.js";
import { MemoryEngine } from "../../src/engine/memory-engine.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { setupCommands } from "../../src/setup/setup-file.js";
import { newSeatKey, signedText, signText } from "../../src/crypto/signatures.js";

const FIXTURE = fileURLToPath(new URL("../golden/fixtures/action-close.json", import.meta.url));

/** A campaign in memory with every party's key in force: turn 1's Action phase, red's r1 to activate. */
async function given() {
  const engine = new MemoryEngine(() => new Date("2026-03-01T12:00:00Z"));
  const setup = await loadSetupFile(FIXTURE);
  const created = await engine.execute(
    setup.campaign,
    setupCommands(setup).map((step) => step.command),
  );
  if (!created.ok) throw new Error(JSON.stringify(created.refusal));
  const secrets = new MemorySecrets();
  const table = new Table(engine, setup.campaign, { secrets, random: sequenceRandomHex("keys") });
  await table.takeChores();
  return { engine, table, secrets, campaign: setup.campaign };
}

describe("seat keys and signed commands (D2)", () => {
  it("audits a log from before keys as before: every event unsigned, none forged", async () => {
    const engine = await Engine.open(join(await tempDir("epicwar-unsigned-"), "db"), {
      clock: () => new Date("2026-03-01T12:00:00Z"),
    });
    try {
      const setup = await loadSetupFile(FIXTURE);
      const created = await engine.create(setupCommands(setup).map((step) => step.command));
      expect(created.ok).toBe(true);
      // A Table as clients were before keys: it registers none and signs nothing.
      const table = new Table(engine, setup.campaign, { secrets: new MemorySecrets(), signing: false });
      await table.takeChores();
      const events = await engine.store.readAll(setup.campaign);
      expect(events.some((event) => event.type === "SeatKeyRegistered" || event.command)).toBe(false);
      const report = auditCampaign(await loadAuditInput(engine.store, setup.campaign));
      expect(report.ok, renderAudit(report).join("\n")).toBe(true);
      expect(report.signatures).toMatchObject({ signed: 0, derived: 0, replacements: [] });
      const unsigned = Object.values(report.signatures.unsigned).reduce((sum, count) => sum + count, 0);
      expect(unsigned).toBe(events.length);
    } finally {
      await engine.close();
    }
  });

  it("registers a key for every party once play begins, each in an event signed by that key", async () => {
    const { engine, campaign } = await given();
    const state = await engine.state(campaign);
    expect(Object.keys(state.seatKeys ?? {}).sort()).toEqual(["blue", "host", "red"]);
    for (const key of Object.values(state.seatKeys!)) expect(key.replacements).toEqual([]);
  });

  it("refuses an unsigned command, and one signed by another key, from a party with a key in force", async () => {
    const { engine, table, campaign } = await given();
    const state = await engine.state(campaign);
    const winner = state.turnState!.initiativeWinner!;
    const choose = { actor: winner, type: "ChooseFirst", first: "red" };
    const unsigned = await engine.execute(campaign, [choose]);
    expect(unsigned).toMatchObject({ ok: false, refusal: { kind: "rule", rule: "D2", field: "signature" } });
    const stranger = await newSeatKey();
    const point = { campaign, line: campaign, seq: state.seq, view: null };
    const value = await signText(stranger, signedText(point, choose));
    const forged = await engine.execute(campaign, [{ ...choose, signature: { seq: state.seq, view: null, value } }]);
    expect(forged).toMatchObject({ ok: false, refusal: { kind: "rule", rule: "D2" } });
    expect((await engine.state(campaign)).seq).toBe(state.seq);
    const signed = await table.submit(choose);
    expect(signed.ok).toBe(true);
    if (signed.ok) expect(signed.events[0]!.command?.signed).toContain('"type":"ChooseFirst"');
  });
});
