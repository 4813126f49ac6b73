import type { CurrentEvent, DomainEvent } from "../../events/index.js";
import { sq } from "../rules/refusal.js";

type Describers = { [T in DomainEvent["type"]]: (data: Extract<DomainEvent, { type: T }>["data"]) => string };

const describers: Describers = {
  CampaignCreated: (d) =>
    `campaign "${d.name}" created: ${d.map.width}x${d.map.height} map, ${d.players.map((p) => `${p.name} (${p.id}, ${p.baseLine})`).join(" vs ")}, ` +
    `M ${d.force.maxArmyPoints.toLocaleString("en")} x N ${d.force.armies}`,
  ArmyRegistered: (d) => `${d.player} registered army ${d.army} "${d.name}" (${d.formations.length} formations)`,
  HomeBasePlaced: (d) => `${d.player} placed its home base at ${sq(d.at)}`,
  ObjectivePlaced: (d) => `${d.placedBy} placed objective ${d.objective} at ${sq(d.at)}`,
  ArmyDeployed: (d) => `army ${d.army} deployed at ${sq(d.at)}`,
  CampaignStarted: (d) => `set-up complete: turn ${d.turn} begins`,
};

/** One event in players' words. */
export function describeEvent(event: DomainEvent): string {
  return (describers[event.type] as (data: unknown) => string)(event.data);
}

export function logLine(event: CurrentEvent): string {
  return `#${String(event.seq).padEnd(5)} ${event.at}  ${event.actor.padEnd(10)} ${event.type.padEnd(16)} ${describeEvent(event)}`;
}
