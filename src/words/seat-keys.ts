import { registration } from "../rules/seat-keys.js";
import type { CampaignView } from "../views/view.js";

/** D2: the warning every surface shows for a party's key replaced, naming whose and when. */
export const keyReplacedWarning = (replacement: { party: string; seq: number; turn?: number; at?: string }): string =>
  `WARNING: ${replacement.party}'s key was replaced at seq ${replacement.seq}` +
  `${replacement.turn !== undefined ? ` (turn ${replacement.turn})` : ""}${replacement.at ? ` (${replacement.at})` : ""}: ` +
  `from then on whoever holds ${replacement.party}'s seat signs for ${replacement.party}; if ${replacement.party} did not do this, someone else took its seat`;

/** D2: a warning for each key replacement the campaign holds, oldest first. */
export function keyWarnings(state: Pick<CampaignView, "seatKeys">): string[] {
  return Object.entries(state.seatKeys ?? {})
    .flatMap(([party, key]) => key.replacements.map((replaced) => ({ party, ...replaced })))
    .sort((a, b) => a.seq - b.seq)
    .map(keyReplacedWarning);
}

/** D2: what a party's own machine says when the key in force for it is not the one it holds. */
export const foreignKeyWarning = (party: string, seq: number): string =>
  `WARNING: ${party}'s key in force (registered at seq ${seq}) is not the one this machine holds: someone else registered it, and its commands are refused until ${party} registers its own (${registration(party)}), which every seat is warned of`;
