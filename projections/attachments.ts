import type { Draft } from "immer";
import type { Catalogue, Reattached, RosterFormation } from "../events/common.js";

/**
 * E5: support, special and titan formations are attached to a company of their army (seed 000: "Support and/or
 * Special Cards attached to a Company"; its worked example attaches a Titan too).
 */

export function isCompany(catalogue: Catalogue, formation: Pick<RosterFormation, "formation">): boolean {
  return catalogue.formations[formation.formation]?.kind === "company";
}

export function isAttachable(catalogue: Catalogue, formation: Pick<RosterFormation, "formation">): boolean {
  const kind = catalogue.formations[formation.formation]?.kind;
  return kind === "support" || kind === "special" || kind === "titan";
}

/** The formations attached to a company, wiped-out ones included. */
export function attachedTo(roster: readonly RosterFormation[], company: string): RosterFormation[] {
  return roster.filter((formation) => formation.attachedTo === company);
}

/** Moves the formations attached to companies that left the army as the event says; the rest are attached to none. */
export function reattach(roster: Draft<RosterFormation>[], left: readonly string[], reattached: Reattached = {}): void {
  for (const formation of roster) {
    if (formation.attachedTo === undefined || !left.includes(formation.attachedTo)) continue;
    const company = reattached[formation.id];
    if (company === undefined) delete formation.attachedTo;
    else formation.attachedTo = company;
  }
}
