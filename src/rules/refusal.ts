import type { Square } from "../../events/common.js";

/**
 * A refused command: a value naming the rule of ../shared/RULES.md it breaks (or the organiser's O1, O2 of
 * docs/rulings.md), or the field that is wrong, with a sentence a player understands.
 */
export type Refusal =
  /** A rule refused it; `field` is the command's field the rule found wrong, where one is (a dotted path). */
  | { kind: "rule"; rule: string; message: string; field?: string }
  | { kind: "field"; field: string; message: string }
  /** The log moved on while the command was decided: nothing was written; decide again on the new state. */
  | { kind: "conflict"; message: string };

/** Thrown inside a decider only; `decide` turns it into a Refusal value. */
export class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

export function refuseRule(rule: string, message: string, field?: string): never {
  throw new Refused({ kind: "rule", rule, message, ...(field === undefined ? {} : { field }) });
}

export function refuseField(field: string, message: string): never {
  throw new Refused({ kind: "field", field, message });
}

export function describeRefusal(refusal: Refusal): string {
  switch (refusal.kind) {
    case "rule":
      return `${refusal.rule}: ${refusal.message}`;
    case "field":
      return `${refusal.field}: ${refusal.message}`;
    case "conflict":
      return refusal.message;
  }
}

/** The field of a battle result a B4 refusal names: a side's losses, routed units or titan damage of a formation. */
export const resultField = (
  role: string,
  list: "losses" | "routed" | "titanDamage",
  formation: string,
  unitType?: string,
): string => ["result", role, list, formation, ...(unitType === undefined ? [] : [unitType])].join(".");

export const sq = ([x, y]: Square): string => `(${x},${y})`;

/** Points as a sentence writes them: 1,000. */
export const pts = (n: number): string => n.toLocaleString("en");
