import { randomBytes } from "node:crypto";
import type { Order } from "../../events/common.js";
import type { CampaignState } from "../../projections/state.js";
import { orderCommitment, seedCommitment } from "../commitments.js";
import { sha256Hex } from "../log/hash.js";
import { rollInitiative, type DiceSeeds } from "../dice.js";
import { heldSalt, prepareAnswerScouting, prepareScoutArmy, scoutingRounds } from "./scouting.js";
import type { SecretKeeper } from "./secrets.js";

/** Random bytes as hex; injected so that tests and demos are repeatable. */
export type RandomHex = (bytes: number) => string;
export const cryptoRandomHex: RandomHex = (bytes) => randomBytes(bytes).toString("hex");

/**
 * A fixed sequence of "random" bytes drawn from a label: the same salts and seeds, so the same dice, on every run.
 * For demos and tests only; real play draws from the operating system (cryptoRandomHex).
 */
export function sequenceRandomHex(label: string): RandomHex {
  let counter = 0;
  return (bytes) => sha256Hex(`${label}-${counter++}`).repeat(Math.ceil(bytes / 32)).slice(0, bytes * 2);
}

/** A command the player's side could not prepare: a secret is missing or a salt is malformed. */
export class PrepareError extends Error {
  override readonly name = "PrepareError";
}

export const SALT_BYTES = 16;
export const SEED_BYTES = 32;

/** The turn a StartTurn begins: turn 1 right after set-up, else the one after the last ended turn. */
export function turnToStart(state: CampaignState): number {
  return state.turnState === null ? state.turn : state.turn + 1;
}

/** The dice seeds of the current turn, once the host's seed is known to whoever asks. */
export function turnSeeds(state: CampaignState, hostSeed: string): DiceSeeds {
  const players = state.setup!.players.map((p) => p.id);
  return {
    campaign: state.campaign!,
    turn: state.turn,
    hostSeed,
    playerSeeds: players.map((p) => state.turnState!.playerSeeds[p] ?? ""),
  };
}

type Input = Record<string, unknown> & { type?: unknown; actor?: unknown };

/**
 * The player's (or host's) side of the protocol: turns a command as a person writes it into what the engine takes.
 * An order given in the clear becomes a commitment, its order and salt kept in the party's secrets; a reveal, a seed
 * or the turn's dice are filled in from those secrets. Anything else passes through unchanged for the engine to check.
 */
export interface Prepared {
  command: unknown;
  /** Keeps the secret the command commits to: call it only once the engine has accepted the command. */
  keep: () => Promise<void>;
}

const nothingToKeep = async () => {};

export async function prepareCommand(state: CampaignState, raw: unknown, secrets: SecretKeeper, random: RandomHex = cryptoRandomHex): Promise<Prepared> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { command: raw, keep: nothingToKeep };
  const input = raw as Input;
  const actor = String(input.actor);
  switch (input.type) {
    case "StartTurn": {
      if (input["hostSeedHash"] !== undefined) return { command: input, keep: nothingToKeep };
      const { hostSeed, ...rest } = input;
      const seed = typeof hostSeed === "string" ? hostSeed : random(SEED_BYTES);
      return { command: { ...rest, hostSeedHash: seedCommitment(seed) }, keep: () => secrets.keepHostSeed(turnToStart(state), seed) };
    }
    case "GiveSeed":
      return { command: input["seed"] === undefined ? { ...input, seed: random(SEED_BYTES) } : input, keep: nothingToKeep };
    case "RollInitiative": {
      if (input["rounds"] !== undefined || !state.turnState) return { command: input, keep: nothingToKeep };
      const hostSeed = await secrets.hostSeed(state.turn);
      if (!hostSeed) throw new PrepareError(`the host's dice seed for turn ${state.turn} is not in its secrets`);
      const players = state.setup!.players.map((p) => p.id);
      return { command: { ...input, rounds: rollInitiative(turnSeeds(state, hostSeed), players, state.turnState.diceUsed) }, keep: nothingToKeep };
    }
    case "ActivateArmy": {
      if (input["order"] === undefined) return { command: input, keep: nothingToKeep };
      const { order, salt, ...rest } = input;
      if (salt !== undefined && (typeof salt !== "string" || !/^[0-9a-f]{32,128}$/.test(salt))) {
        throw new PrepareError("a salt must be 32 to 128 lower-case hex characters (at least 128 random bits)");
      }
      const army = String(input["army"]);
      // A3: an order a scouting made public is activated with the salt it was revealed with.
      const pledged = await heldSalt(state, secrets, actor, army, order as Order);
      const held = { order: order as Order, salt: typeof salt === "string" ? salt : (pledged ?? random(SALT_BYTES)) };
      return {
        command: { ...rest, commitment: orderCommitment({ campaign: state.campaign!, turn: state.turn, army, ...held }) },
        keep: () => secrets.keepOrder(actor, state.turn, army, held),
      };
    }
    case "RevealOrder": {
      if (input["order"] !== undefined) return { command: input, keep: nothingToKeep };
      const army = String(input["army"]);
      const held = await secrets.order(actor, state.turn, army);
      if (!held) throw new PrepareError(`${actor} holds no order for ${army} in turn ${state.turn}: its secrets were lost`);
      return { command: { ...input, ...held }, keep: nothingToKeep };
    }
    case "ScoutArmy":
      return prepareScoutArmy(state, input, secrets, () => random(SALT_BYTES));
    case "AnswerScouting":
      return prepareAnswerScouting(state, input, secrets, () => random(SALT_BYTES));
    case "RollScouting": {
      if (input["rounds"] !== undefined || !state.turnState) return { command: input, keep: nothingToKeep };
      const hostSeed = await secrets.hostSeed(state.turn);
      if (!hostSeed) throw new PrepareError(`the host's dice seed for turn ${state.turn} is not in its secrets`);
      const rounds = scoutingRounds(state, String(input["scouting"]), turnSeeds(state, hostSeed));
      return { command: rounds ? { ...input, rounds } : input, keep: nothingToKeep };
    }
    case "EndTurn": {
      if (input["hostSeed"] !== undefined) return { command: input, keep: nothingToKeep };
      const hostSeed = await secrets.hostSeed(state.turn);
      if (!hostSeed) throw new PrepareError(`the host's dice seed for turn ${state.turn} is not in its secrets`);
      return { command: { ...input, hostSeed }, keep: nothingToKeep };
    }
    default:
      return { command: input, keep: nothingToKeep };
  }
}
