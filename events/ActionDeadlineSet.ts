import { Type } from "@sinclair/typebox";
import { defineEvent, type DataOf } from "./define.js";

/**
 * An RFC 3339 date-time with its offset, e.g. 2026-03-01T18:00:00Z or 2026-03-01T19:00:00+01:00. A pattern rather than
 * ajv's "date-time" format, which the catalogue's and the commands' validators do not load; the decider also checks
 * that it names a real moment.
 */
export const DateTime = Type.String({
  pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})$",
});

/**
 * The host set (or moved) the deadline of the current turn's Action phase, as a UTC date-time: from then on the host
 * may close the phase under the T5 stall ruling without a stall claim (O2).
 */
export const ActionDeadlineSet = defineEvent(
  "ActionDeadlineSet",
  1,
  Type.Object({ turn: Type.Integer({ minimum: 1 }), deadline: DateTime }, { additionalProperties: false }),
);
export type ActionDeadlineSet = DataOf<typeof ActionDeadlineSet>;
