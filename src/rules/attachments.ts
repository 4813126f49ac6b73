import type { Catalogue, FormationEntry, Reattached, RosterFormation } from "../../events/common.js";
import { attachedTo, isAttachable, isCompany } from "../../projections/attachments.js";
import { refuseField, refuseRule } from "./refusal.js";
import { hasUnits } from "./reserves.js";

/**
 * E5 for new formations: a support, special or titan formation joins the company it names, or by default the army's
 * first company that has units; a company is attached to nothing.
 */

const kindOf = (catalogue: Catalogue, formation: RosterFormation) => catalogue.formations[formation.formation]?.kind;

/** The company a formation joins when none is named: the army's first company with units, if any. */
export function defaultCompany(catalogue: Catalogue, roster: readonly RosterFormation[]): string | undefined {
  return roster.find((formation) => isCompany(catalogue, formation) && hasUnits(formation))?.id;
}

/**
 * The new roster entries `added` (in the order of the command's `entries`) with the company each attachable one is
 * attached to. `army` is the army's whole roster once they join it; `field` names the entries in a refusal.
 */
export function attachNew(
  catalogue: Catalogue,
  entries: readonly Pick<FormationEntry, "attachedTo">[],
  added: readonly RosterFormation[],
  army: readonly RosterFormation[],
  field: (index: number) => string,
): RosterFormation[] {
  return added.map((formation, i) => {
    const named = entries[i]?.attachedTo;
    if (!isAttachable(catalogue, formation)) {
      if (named !== undefined)
        refuseField(
          field(i),
          `only support, special and titan formations are attached to a company (E5); "${formation.id}" is a ${kindOf(catalogue, formation)} formation`,
        );
      return formation;
    }
    const company = named ?? defaultCompany(catalogue, army);
    if (company === undefined) return formation;
    requireLiveCompany(catalogue, army, company, field(i));
    return { ...formation, attachedTo: company };
  });
}

function requireLiveCompany(catalogue: Catalogue, army: readonly RosterFormation[], id: string, field: string): void {
  const companies = army.filter((formation) => isCompany(catalogue, formation) && hasUnits(formation));
  const company = army.find((formation) => formation.id === id);
  if (company && isCompany(catalogue, company) && hasUnits(company)) return;
  const choices = companies.length
    ? `one of ${companies.map((c) => `"${c.id}"`).join(", ")}`
    : "none: the army has no company with units";
  if (company && isCompany(catalogue, company))
    refuseRule("E5", `company "${id}" was wiped out: a formation is attached to a company with units (${choices})`);
  refuseField(field, `"${id}" is not a company of this army: a formation is attached to ${choices}`);
}

/** The live formations of `kept` attached to `company`: what breaking the company down would leave without it. */
export function carriedBy(kept: readonly RosterFormation[], company: string): RosterFormation[] {
  return attachedTo(kept, company).filter(hasUnits);
}

/**
 * Where the formations of `kept` attached to the companies that leave go: to `replacement` if it takes the place of
 * their company, else to the first company left with units; with none left, to no company (seed 000's note on
 * attrition: the army carries on).
 */
export function reattachments(
  catalogue: Catalogue,
  kept: readonly RosterFormation[],
  leaving: readonly string[],
  replacement?: { replaced: string; by: string },
): Reattached | undefined {
  const fallback = defaultCompany(catalogue, kept);
  const moves: Reattached = {};
  for (const formation of kept) {
    if (formation.attachedTo === undefined || !leaving.includes(formation.attachedTo)) continue;
    const company = replacement && formation.attachedTo === replacement.replaced ? replacement.by : fallback;
    if (company !== undefined) moves[formation.id] = company;
  }
  return Object.keys(moves).length ? moves : undefined;
}
