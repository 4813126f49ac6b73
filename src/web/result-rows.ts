import { resultField } from "../rules/refusal.js";
import type { Verdict } from "./game.js";

/** A row of the battle result form: a side's formation, and one unit type of it. */
export interface ResultRow {
  role: "attacker" | "defender";
  formation: string;
  unit: string;
}

/** Where in a battle result a row's numbers are entered: its losses, its routed units, its titan's damage. */
const LISTS = ["losses", "routed", "titanDamage"] as const;

/**
 * B4: the row of the result form a refusal is about, from the field of the result the rule names
 * (`result.attacker.losses.howlers1.horde-howler`): the row of that unit type, else, for a field of a whole formation,
 * the formation's first row. Undefined for a refusal that names no field of a formation the form lists.
 */
export function rowOfRefusal(verdict: Verdict | null, rows: readonly ResultRow[]): ResultRow | undefined {
  if (verdict?.kind !== "rule" || verdict.field === undefined) return undefined;
  const { field } = verdict;
  const names = (row: ResultRow, unit?: string) =>
    LISTS.some((list) => field === resultField(row.role, list, row.formation, unit));
  return rows.find((row) => names(row, row.unit)) ?? rows.find((row) => names(row));
}
