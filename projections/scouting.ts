import type { Static } from "@sinclair/typebox";
import type { Draft } from "immer";
import type { Order } from "../events/common.js";
import type { DomainEvent } from "../events/index.js";
import type { ScoutingBand } from "../events/ScoutingRolled.js";
import type { Engagement } from "./derived.js";
import type { CampaignState, TurnState } from "./state.js";

/** A3 as data: the scouting record of a turn, its bands, and the reducers of the scouting events. */

export type ScoutingBandName = Static<typeof ScoutingBand>;

/** One scouting of the current turn, from declaration to the size stated. */
export interface ScoutingState {
  id: string;
  /** The scouting army and its player. */
  army: string;
  player: string;
  /** The scouted army and its player. */
  target: string;
  targetPlayer: string;
  /** Seq of the ScoutingDeclared event. */
  seq: number;
  scoutBonus: number;
  /** Null until the scouted player has answered. */
  scoutedBonus: number | null;
  /** Null until rolled. */
  band: ScoutingBandName | null;
  /** The size the scouted player stated; null until stated. */
  statedPoints: number | null;
}

/** An order made public before its army's activation (A3): the activation must carry this commitment. */
export interface PledgedOrder {
  order: Order;
  commitment: string;
}

export interface TurnScouting {
  scoutings: Record<string, ScoutingState>;
  /** By army id. */
  pledges: Record<string, PledgedOrder>;
}

/** How far the stated size may lie from the true one, in points, for each band. */
export const BLUFF_MARGIN: Readonly<Record<ScoutingBandName, number>> = {
  scoutTriple: 0,
  scoutDouble: 0,
  scoutWins: 1000,
  scoutedWins: 2000,
  scoutedDouble: 3000,
  scoutedTriple: 4000,
};

/** A3: the band of two totals with bonuses; null for a tie, which is rerolled. */
export function scoutingBand(scout: number, scouted: number): ScoutingBandName | null {
  if (scout === scouted) return null;
  if (scout > scouted) {
    if (scout >= 3 * scouted) return "scoutTriple";
    if (scout >= 2 * scouted) return "scoutDouble";
    return "scoutWins";
  }
  if (scouted >= 3 * scout) return "scoutedTriple";
  if (scouted >= 2 * scout) return "scoutedDouble";
  return "scoutedWins";
}

/** The scouting record of the current turn, made on first use (turns without scouting carry none). */
function turnScouting(turn: Draft<TurnState>): Draft<TurnScouting> {
  turn.scouting ??= { scoutings: {}, pledges: {} };
  return turn.scouting;
}

/** The scouting of `target` by `army` this turn, if any. */
export function scoutingOf(turn: TurnState | null, army: string, target: string): ScoutingState | undefined {
  return Object.values(turn?.scouting?.scoutings ?? {}).find((s) => s.army === army && s.target === target);
}

type Data<T extends DomainEvent["type"]> = Extract<DomainEvent, { type: T }>["data"];

export function scoutingDeclared(state: Draft<CampaignState>, data: Data<"ScoutingDeclared">, seq: number): void {
  const scouting = turnScouting(state.turnState!);
  scouting.scoutings[data.scouting] = {
    id: data.scouting,
    army: data.army,
    player: data.player,
    target: data.target,
    targetPlayer: state.armies[data.target]!.player,
    seq,
    scoutBonus: data.bonus,
    scoutedBonus: null,
    band: null,
    statedPoints: null,
  };
  scouting.pledges[data.army] = { order: data.order, commitment: data.commitment };
}

export function scoutingAnswered(state: Draft<CampaignState>, data: Data<"ScoutingAnswered">): void {
  const scouting = turnScouting(state.turnState!);
  scouting.scoutings[data.scouting]!.scoutedBonus = data.bonus;
  if (data.firstFire && !state.turnState!.activations[data.army]) {
    scouting.pledges[data.army] = { order: "firstFire", commitment: data.firstFire.commitment };
  }
}

export function scoutingRolled(state: Draft<CampaignState>, data: Data<"ScoutingRolled">): void {
  const turn = state.turnState!;
  turn.diceUsed = data.firstDie + 4 * data.rounds.length;
  turnScouting(turn).scoutings[data.scouting]!.band = data.band;
}

export function armySizeStated(state: Draft<CampaignState>, data: Data<"ArmySizeStated">): void {
  turnScouting(state.turnState!).scoutings[data.scouting]!.statedPoints = data.points;
}

/**
 * A3: what a scouting changes in a battle the scout then fights against the scouted army, which only a defender on
 * First Fire feels: the scout winning by 3x takes every First Fire bonus, by 2x the automatic initiative; the scouted
 * army winning by 2x adds 10 cm to its deployment and makes the attacker deploy first, by 3x also lets it dig in.
 */
export function afterScouting(base: Engagement, defender: Order, band: ScoutingBandName): Engagement {
  if (defender !== "firstFire") return base;
  switch (band) {
    case "scoutTriple":
      return {
        initiative: null,
        forwardCm: { attacker: base.forwardCm.attacker, defender: 0 },
        deploysFirst: null,
        effect: "standard battle: the scouting took every First Fire bonus (A3)",
      };
    case "scoutDouble":
      return { ...base, initiative: null, effect: `${base.effect}; but after the scouting (A3) initiative is rolled as normal` };
    case "scoutedDouble":
    case "scoutedTriple": {
      const dugIn = band === "scoutedTriple";
      return {
        ...base,
        forwardCm: { ...base.forwardCm, defender: base.forwardCm.defender + 10 },
        deploysFirst: "attacker",
        effect: `${base.effect}; after the scouting (A3) the defender deploys 10 cm further still and the attacker deploys first${dugIn ? "; the defender's units may start dug in" : ""}`,
        ...(dugIn ? { dugIn } : {}),
      };
    }
    default:
      return base;
  }
}
