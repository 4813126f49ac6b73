import { createHash } from "node:crypto";
import canonicalizeModule from "canonicalize";
import { Level } from "level";
import type { NewEvent, StoredEvent } from "../../events/index.js";
import type { EventStore } from "../../src/log/index.js";

// Test-side copies of the layout rules, written out independently of src/log so that a change there is caught here.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

export const GENESIS = "0".repeat(64);
export const AT = "2026-01-01T00:00:00.000Z";

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export function canonical(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("no JSON representation");
  return text;
}

/** The canonical JSON the hash of a stored event must cover: the envelope without its hash. */
export function bodyOf(event: StoredEvent): string {
  const { hash: _hash, ...envelope } = event;
  return canonical(envelope);
}

/** Key of an event in the "events" sublevel: stream, "#", seq padded to 12 digits. */
export function rawKey(stream: string, seq: number): string {
  return `${stream}#${String(seq).padStart(12, "0")}`;
}

/** A valid ArmyDeployed event; `n` makes its data distinct. */
export function deployed(n: number, actor = "p1", at = AT): NewEvent {
  return { type: "ArmyDeployed", version: 1, at, actor, data: { army: `a${n}`, at: [n % 1000, (n * 7) % 1000] } };
}

export function deployedBatch(first: number, size: number, actor = "p1"): NewEvent[] {
  return Array.from({ length: size }, (_, i) => deployed(first + i, actor));
}

/** Appends `count` events in batches of `batchSize`, awaiting each append; returns every stored event. */
export async function fill(
  store: EventStore,
  stream: string,
  count: number,
  batchSize = 100,
  options: { sync?: boolean } = {},
): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  while (all.length < count) {
    const size = Math.min(batchSize, count - all.length);
    all.push(...(await store.append(stream, all.length, deployedBatch(all.length + 1, size), options)));
  }
  return all;
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** The folder opened directly, with the store's sublevel names and encoding, as someone editing the files would. */
export async function openRaw(dir: string) {
  const db = new Level<string, string>(dir, { valueEncoding: "utf8" });
  await db.open();
  const events = db.sublevel<string, string>("events", { valueEncoding: "utf8" });
  const heads = db.sublevel<string, string>("heads", { valueEncoding: "utf8" });
  return { db, events, heads };
}
