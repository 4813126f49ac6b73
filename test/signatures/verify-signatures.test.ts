/**
 * D2 in `epicwar verify` (docs/signatures.md, "What verify checks"): once the chain holds, every signed command is
 * checked against its party's key in force. A signature forged into a chain re-sealed to hold is named by its seq
 * (exit 2), where the chain alone passes; a log from before keys verifies, its events counted as unsigned by party. On
 * Ashfall played three turns by the demo's commanders, its stored log rewritten through LevelDB directly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewEvent, StoredEvent } from "../../events/index.js";
import { Engine } from "../../src/engine/engine.js";
import { sealEvent, verifyStream } from "../../src/log/index.js";
import { CAMPAIGN, cli, copyOf, openRaw, playedFolder, rawKey, removePlayed, show } from "../replays-support.js";

let played = "";
let events: StoredEvent[] = [];

beforeAll(async () => {
  played = await playedFolder(3);
  const engine = await Engine.open(played, { createIfMissing: false });
  events = await engine.store.readAll(CAMPAIGN);
  await engine.close();
}, 60_000);
afterAll(() => removePlayed(played));

/** A copy of the played folder whose log is `edit` of its events, sealed again into a chain that holds. */
async function rewritten(edit: (events: StoredEvent[]) => StoredEvent[]): Promise<string> {
  const db = await copyOf(played);
  const raw = await openRaw(db);
  try {
    await raw.events.clear({ gte: rawKey(CAMPAIGN, 0), lte: rawKey(CAMPAIGN, 999_999_999_999) });
    let prev = "0".repeat(64);
    const puts = edit(structuredClone(events)).map(({ type, version, at, actor, data, command }, index) => {
      const event: NewEvent = { type, version, at, actor, data, ...(command ? { command } : {}) };
      const { value } = sealEvent(CAMPAIGN, index + 1, prev, event);
      prev = value.slice(0, 64);
      return { type: "put" as const, key: rawKey(CAMPAIGN, index + 1), value };
    });
    await raw.events.batch(puts);
    await raw.heads.put(CAMPAIGN, JSON.stringify({ seq: puts.length, hash: prev }));
  } finally {
    await raw.level.close();
  }
  return db;
}

describe("epicwar verify checks signatures (D2)", () => {
  it("verifies every signed command of a played campaign, and counts the events without a signature", async () => {
    const run = await cli(["verify", "--db", played]);
    expect(run.code, show(run)).toBe(0);
    const signed = events.filter((event) => event.command).length;
    expect(signed).toBeGreaterThan(50);
    // The set-up is the host's and the players' before any key: unsigned, by party.
    const beforeKeys = events.findIndex((event) => event.type === "SeatKeyRegistered");
    const byParty = new Map<string, number>();
    for (const event of events.slice(0, beforeKeys)) byParty.set(event.actor, (byParty.get(event.actor) ?? 0) + 1);
    const keyed = events.length - beforeKeys - signed;
    expect(run.stdout).toContain(
      `signatures: ${signed} signed commands verified against the keys in force, ${keyed} events of a party with a key in force written after them`,
    );
    expect(run.stdout).toContain(
      `${beforeKeys} events unsigned (no key in force): ${[...byParty].map(([party, n]) => `${party} ${n}`).join(", ")}`,
    );
  });

  it("names a forged signature in a chain that holds, which the chain alone does not catch", async () => {
    const forged = events.find(
      (event) => event.command && event.actor === "horde" && event.type !== "SeatKeyRegistered",
    )!;
    const db = await rewritten((all) => {
      const command = all[forged.seq - 1]!.command!;
      const last = command.signature.at(-1) === "0" ? "1" : "0";
      command.signature = command.signature.slice(0, -1) + last;
      return all;
    });
    const engine = await Engine.open(db, { createIfMissing: false });
    try {
      expect(await verifyStream(engine.store, CAMPAIGN)).toMatchObject({ ok: true, events: events.length });
      expect(await verifyStream(engine.store, CAMPAIGN, { signatures: true })).toMatchObject({
        ok: false,
        seq: forged.seq,
        problem: "signature",
      });
    } finally {
      await engine.close();
    }
    const run = await cli(["verify", "--db", db]);
    expect(run.code, show(run)).toBe(2);
    expect(run.stderr).toContain(
      `${CAMPAIGN}: signature broken at seq ${forged.seq} (D2): event ${forged.seq}: the signature is not by horde's key in force`,
    );
  });

  it("names a command signed by another key than the party's in force: the organiser's, say", async () => {
    const hostKey = events.find((event) => event.type === "SeatKeyRegistered" && event.actor === "host")!;
    const horde = events.find(
      (event) => event.command && event.actor === "horde" && event.type !== "SeatKeyRegistered",
    )!;
    const db = await rewritten((all) => {
      // The host's own signature of another command, with horde's command's text: a signature by a key, not horde's.
      const host = all.find((event) => event.command && event.actor === "host" && event.seq > hostKey.seq)!;
      all[horde.seq - 1]!.command!.signature = host.command!.signature;
      return all;
    });
    const run = await cli(["verify", "--db", db]);
    expect(run.code, show(run)).toBe(2);
    expect(run.stderr).toContain(`signature broken at seq ${horde.seq} (D2)`);
  });

  it("verifies a log from before keys, its events reported unsigned rather than forged", async () => {
    const db = await rewritten((all) =>
      all.filter((event) => event.type !== "SeatKeyRegistered").map(({ command: _signed, ...event }) => event),
    );
    const kept = events.filter((event) => event.type !== "SeatKeyRegistered");
    const byParty = new Map<string, number>();
    for (const event of kept) byParty.set(event.actor, (byParty.get(event.actor) ?? 0) + 1);
    const run = await cli(["verify", "--db", db]);
    expect(run.code, show(run)).toBe(0);
    expect(run.stdout).toContain(`${CAMPAIGN}: intact, ${kept.length} events`);
    expect(run.stdout).toContain(
      `signatures: 0 signed commands verified against the keys in force, 0 events of a party with a key in force written after them (the audit decides each again), ${kept.length} events unsigned (no key in force): ${[...byParty].map(([party, n]) => `${party} ${n}`).join(", ")}`,
    );
  });
});
