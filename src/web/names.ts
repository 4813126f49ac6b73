import type { CampaignView } from "../views/view.js";

/**
 * A line in the engine's words with the ids a person does not know (armies "h1", sides "horde") replaced by their
 * names ("Ashfoot Throng", "The Cinder Horde"), as the seat's view holds them; ids it does not hold are left as they
 * are. An id counts only as a whole word: "horde" in "horde-clan-chief" is a unit type, not the side.
 */
export function withNames(line: string, view: CampaignView): string {
  const names = new Map<string, string>();
  for (const player of view.setup?.players ?? []) names.set(player.id, player.name);
  for (const army of Object.values(view.armies)) names.set(army.id, army.name);
  if (names.size === 0) return line;
  const ids = [...names.keys()].sort((a, b) => b.length - a.length).map(escape);
  return line.replace(new RegExp(`(?<![\\w-])(?:${ids.join("|")})(?![\\w-])`, "g"), (id) => names.get(id)!);
}

/** A moment the engine writes in UTC (an ISO string), in the reader's own local time and words. */
export function localTimes(line: string): string {
  return line.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z/g, (iso) =>
    new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
  );
}

/** A line of the engine's words as a person reads it on the page: names for ids, local times for UTC. */
export const forReaders = (line: string, view: CampaignView): string => localTimes(withNames(line, view));

const escape = (id: string) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
