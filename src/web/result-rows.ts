import type { Verdict } from "./game.js";

/** A row of the battle result form: a side's formation, and one unit type of it. */
export interface ResultRow {
  role: "attacker" | "defender";
  formation: string;
  unit: string;
}

/**
 * B4: the row of the result form a refusal is about, read from the sentence the rules write for a formation of a side
 * (`formation "howlers1" of the attacker's army "h5" lost 2 "horde-clan-chief" but has only 1`): the unit type it
 * names, else the formation's first row. Undefined for a refusal that names no formation the form lists.
 */
export function rowOfRefusal(verdict: Verdict | null, rows: readonly ResultRow[]): ResultRow | undefined {
  if (verdict?.kind !== "rule") return undefined;
  const named = /formation "([^"]+)" of the (attacker|defender)'s army/.exec(verdict.message);
  if (!named) return undefined;
  const [, formation, role] = named;
  const unit = /(?:lost \d+|has no|has \d+) "([^"]+)"/.exec(verdict.message)?.[1];
  const ofFormation = rows.filter((row) => row.role === role && row.formation === formation);
  return ofFormation.find((row) => row.unit === unit) ?? ofFormation[0];
}
