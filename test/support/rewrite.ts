import type { NewEvent } from "../../events/envelope.js";
import type { StoredEvent } from "../../events/index.js";

/** A stored event as it was written (type, version, time, actor, its signed command and a copy of its data): to seal it again elsewhere. */
export const asWritten = (event: StoredEvent): NewEvent => ({
  type: event.type,
  version: event.version,
  at: event.at,
  actor: event.actor,
  ...(event.command ? { command: { ...event.command } } : {}),
  data: structuredClone(event.data),
});
