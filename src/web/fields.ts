/**
 * The text of a form's fields read as a command's members: a square "x,y", a number, a list "a, b", formations
 * "id:formation@company", weapons, a deadline. A mistake names the field and says what would be accepted, as the
 * engine's own refusals do; what the text cannot tell (a formation that does not exist) is left for the engine.
 */

/** What a form's fields hold, by the command member each gives. */
export type Values = Record<string, string>;

/** A field whose text cannot be read as what the command takes. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const asSquare = (values: Values, field: string): [number, number] => {
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(values[field] ?? "");
  if (!match) throw new FieldError(field, `write the square as x,y (as 3,4), not "${values[field] ?? ""}"`);
  return [Number(match[1]), Number(match[2])];
};

export const asNumber = (values: Values, field: string): number => {
  const text = (values[field] ?? "").trim();
  const value = Number(text);
  if (text === "" || !Number.isInteger(value))
    throw new FieldError(field, `write a whole number, not "${values[field] ?? ""}"`);
  return value;
};

export const asList = (values: Values, field: string): string[] =>
  (values[field] ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

/** Formations as "id:formation" (with "@company" to attach a support or special formation), comma-separated. */
export const asEntries = (values: Values, field: string) =>
  asList(values, field).map((entry) => {
    const match = /^([^:@\s]+):([^:@\s]+)(?:@([^:@\s]+))?$/.exec(entry);
    if (!match)
      throw new FieldError(field, `write each formation as id:formation (or id:formation@company), not "${entry}"`);
    return { id: match[1]!, formation: match[2]!, ...(match[3] ? { attachedTo: match[3] } : {}) };
  });

/** Exactly one formation, as "id:formation" (or "id:formation@company"). */
export const asEntry = (values: Values, field: string) => {
  const entries = asEntries(values, field);
  if (entries.length !== 1)
    throw new FieldError(field, `write one formation as id:formation (or id:formation@company)`);
  return entries[0]!;
};

/** "formation:unitType" as a command's commander; left for the engine to refuse when it is not that. */
export function asCommander(values: Values, field: string): { formation: string; unitType: string } {
  const [formation = "", unitType = ""] = (values[field] ?? "").split(":").map((part) => part.trim());
  return { formation, unitType };
}

/**
 * A8 titan repairs' weapons, comma-separated: a destroyed weapon replaced like for like ("volcano cannon"), or by
 * another named with its chart cost ("volcano cannon=plasma blastgun:150").
 */
export const asWeapons = (values: Values, field: string) =>
  asList(values, field).map((entry) => {
    const [destroyed = "", replacement] = entry.split("=").map((part) => part.trim());
    if (replacement === undefined) return { destroyed };
    const match = /^(.+?)\s*:\s*(\d+)$/.exec(replacement);
    if (!destroyed || !match)
      throw new FieldError(
        field,
        `write each weapon as its name (like for like) or name=replacement:points, not "${entry}"`,
      );
    return { destroyed, replacement: { name: match[1]!, points: Number(match[2]) } };
  });

/**
 * O2: a deadline as the browser's date-time field gives it (local time, "2026-12-01T20:00"), as the UTC date-time the
 * command takes. The offset is the browser's own at that moment, so the deadline is the instant the organiser sees.
 */
export function asDeadline(values: Values, field: string): string {
  const text = values[field] ?? "";
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  const local = match
    ? new Date(+match[1]!, +match[2]! - 1, +match[3]!, +match[4]!, +match[5]!, +(match[6] ?? 0))
    : undefined;
  if (!local || local.getMonth() !== +match![2]! - 1 || local.getDate() !== +match![3]!)
    throw new FieldError(field, `choose a date and time (as 2026-12-01T20:00), not "${text}"`);
  return local.toISOString().replace(/\.\d{3}Z$/, "Z");
}
