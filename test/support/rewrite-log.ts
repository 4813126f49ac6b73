import type { StoredEvent } from "../../events/index.js";
import { sealEvent } from "../../src/log/index.js";

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
