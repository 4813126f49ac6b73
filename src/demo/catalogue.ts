import type { Catalogue } from "../../events/common.js";

/** A catalogue formation with its id. */
export type CatalogueEntry = [string, Catalogue["formations"][string]];

/** The catalogue formations a player fields: those named after it, or all when none are. */
export function ownFormations(catalogue: Catalogue, player: string): CatalogueEntry[] {
  const all = Object.entries(catalogue.formations);
  const own = all.filter(([id]) => id.startsWith(`${player}-`));
  return own.length > 0 ? own : all;
}
