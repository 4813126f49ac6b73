import type { StoredEvent } from "../../events/index.js";
import { sealEvent } from "../../src/log/index.js";
import { openRaw, rawKey } from "../replays-support.js";

/** The log as whoever holds the database could rewrite it: edited, then every event sealed again, a new head. */
export function rewritten(events: readonly StoredEvent[], edit: (event: StoredEvent) => StoredEvent): StoredEvent[] {
  let prev = "0".repeat(64);
  return events.map((original) => {
    const { hash: _old, prev: _prev, ...body } = edit(structuredClone(original));
    const { value } = sealEvent(body.stream, body.seq, prev, body);
    const event = { ...(JSON.parse(value.slice(64)) as StoredEvent), hash: value.slice(0, 64) };
    prev = event.hash;
    return event;
  });
}

/** A stream's events as the raw log (`epicwar log --raw`, docs/storage.md) gives them, with its head. */
export const rawText = (stream: string, events: readonly StoredEvent[]): string =>
  events
    .map(({ hash, ...body }) =>
      JSON.stringify({ kind: "event", stream: body.stream, seq: body.seq, hash, body: JSON.stringify(body) }),
    )
    .concat(JSON.stringify({ kind: "head", stream, seq: events.length, hash: events.at(-1)!.hash }))
    .join("\n");

/**
 * Writes a stream's rewritten events over those of a LevelDB folder no process has open, with its head, and drops the
 * folder's snapshots: as whoever holds the database could.
 */
export async function storeRewritten(db: string, stream: string, events: readonly StoredEvent[]): Promise<void> {
  const raw = await openRaw(db);
  try {
    await raw.events.batch(
      events.map(({ hash, ...body }) => ({
        type: "put" as const,
        key: rawKey(stream, body.seq),
        value: hash + JSON.stringify(body),
      })),
    );
    await raw.heads.put(stream, JSON.stringify({ seq: events.at(-1)!.seq, hash: events.at(-1)!.hash }));
    await raw.snapshots.clear();
  } finally {
    await raw.level.close();
  }
}
