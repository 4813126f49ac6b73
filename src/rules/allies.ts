import type { Catalogue, RosterFormation } from "../../events/common.js";
import type { CampaignSetup } from "../../projections/state.js";
import { pts, refuseRule } from "./refusal.js";

/**
 * K4 (seed 001, "Maximum of 25% allies and only 1 source of allies"): where a campaign plays allies, an army's
 * formations of another army list than its own are its allies: together at most 25% of the army's points, and all of
 * one other list. Ruling: an army's own list is the one holding the most of its points (a tie goes to the list of its
 * first formation that has one); a formation with no list belongs to its army's own; points count as the army's do
 * (S8: a formation with a unit left counts whole). Without the option, an army takes formations of one list only.
 */

export interface AlliedShare {
  own: string | null;
  /** Points from each other list. */
  allies: Map<string, number>;
  alliedPoints: number;
  total: number;
}

export function alliedShare(catalogue: Catalogue, formations: readonly RosterFormation[]): AlliedShare {
  const byList = new Map<string, number>();
  let total = 0;
  for (const formation of formations.filter((f) => Object.values(f.units).some((count) => count > 0))) {
    const entry = catalogue.formations[formation.formation];
    if (!entry) continue;
    total += entry.points;
    if (entry.faction !== undefined) byList.set(entry.faction, (byList.get(entry.faction) ?? 0) + entry.points);
  }
  let own: string | null = null;
  for (const [list, points] of byList) if (own === null || points > byList.get(own)!) own = list;
  const allies = new Map([...byList].filter(([list]) => list !== own));
  const alliedPoints = [...allies.values()].reduce((sum, points) => sum + points, 0);
  return { own, allies, alliedPoints, total };
}

/** K4: refuses a roster whose allies break the limit; `what` says what the change is ("army "r1"", "buying ..."). */
export function requireAllies(
  setup: CampaignSetup,
  army: string,
  formations: readonly RosterFormation[],
  what: string,
) {
  const share = alliedShare(setup.catalogue, formations);
  if (share.allies.size === 0) return;
  const lists = [...share.allies.keys()].map((list) => `"${list}"`).join(" and ");
  if (!setup.options.allies)
    refuseRule(
      "K4",
      `${what} would give army "${army}" formations of ${lists} besides its own list "${share.own}": this campaign plays no allies`,
    );
  if (share.allies.size > 1)
    refuseRule("K4", `${what} would give army "${army}" allies from ${lists}: allies come from one source only`);
  if (share.alliedPoints * 4 > share.total)
    refuseRule(
      "K4",
      `${what} would give army "${army}" ${pts(share.alliedPoints)} points of ${lists} allies in ${pts(share.total)}: at most 25% (${pts(Math.floor(share.total / 4))} points) may be allies`,
    );
}
