import { seatsOf } from "./seats.js";
import { reseeding, turnToStart, turnUnderWay } from "../../projections/turns.js";
import type { BattleResult, Order } from "../../events/common.js";
import type { CampaignView } from "../views/view.js";
import { digestHex, orderCommitment, randomHex, seedCommitment } from "../crypto/commitments.js";
import { nothingToKeep } from "./held-orders.js";
import { rollDie, rollInitiative, type DiceSeeds } from "../crypto/dice.js";
import { heldOrderFor, heldSalt, keepOrderIfOpen } from "./held-orders.js";
import { kitRollFaces } from "./battle-kit.js";
import { prepareAnswerScouting, prepareScoutArmy, scoutingRounds } from "./scouting.js";
import type { SecretKeeper } from "./party-secrets.js";

/** Random bytes as hex; injected so that tests and demos are repeatable. */
export type RandomHex = (bytes: number) => string;

/**
 * A fixed sequence of "random" bytes drawn from a label: the same salts and seeds, so the same dice, on every run.
 * For demos and tests only; real play draws from the operating system (randomHex of src/crypto/commitments.ts).
 */
export function sequenceRandomHex(label: string): RandomHex {
  let counter = 0;
  return (bytes) =>
    digestHex(`${label}-${counter++}`)
      .repeat(Math.ceil(bytes / 32))
      .slice(0, bytes * 2);
}

/**
 * B4 with `options.battles: "model"`: the battle model the host's table draws a battle's result with, each die from
 * `take` (the forecast's, injected by the CLI and the server, which host; a page never does).
 */
export type BattleModel = (state: CampaignView, battle: string, take: (sides: number) => number) => BattleResult;

/** A command the player's side could not prepare: a secret is missing or a salt is malformed. */
export class PrepareError extends Error {
  override readonly name = "PrepareError";
}

export const SALT_BYTES = 16;
export const SEED_BYTES = 32;

/** The dice seeds of the current turn, once the host's seed is known to whoever asks. */
export function turnSeeds(state: CampaignView, hostSeed: string): DiceSeeds {
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
 * An order or a seed given in the clear becomes a commitment, the secret kept in the party's secrets; a reveal, a seed
 * or the turn's dice are filled in from those secrets. Anything else passes through unchanged for the engine to check.
 */
export interface Prepared {
  command: unknown;
  /**
   * Keeps the secret the command commits to, durably: call it before the command is submitted, so that no commitment
   * is ever logged whose secret is lost. A secret kept for a command then refused commits to nothing and is harmless.
   */
  keep: () => Promise<void>;
}

const passThrough = (command: unknown): Prepared => ({ command, keep: nothingToKeep });

export const ORDER_SPELLINGS = ["firstFire", "advance", "charge", "fortify"] as const;

/** A salt the player supplies must be as hard to guess as the ones this machine draws. */
function checkSalt(salt: unknown): string | undefined {
  if (salt === undefined) return undefined;
  if (typeof salt !== "string" || !/^[0-9a-f]{32,128}$/.test(salt) || /^(.)\1*$/.test(salt)) {
    throw new PrepareError(
      "salt: must be 32 to 128 lower-case hex characters (at least 128 random bits), not one digit repeated; leave it out and this machine draws one",
    );
  }
  return salt;
}

function checkOrder(order: unknown): Order {
  if (typeof order === "string" && (ORDER_SPELLINGS as readonly string[]).includes(order)) return order as Order;
  throw new PrepareError(
    `order: ${JSON.stringify(order)} is not an order (T4); write one of ${ORDER_SPELLINGS.join(", ")}`,
  );
}

export async function prepareCommand(
  state: CampaignView,
  raw: unknown,
  secrets: SecretKeeper,
  random: RandomHex = randomHex,
  battleModel?: BattleModel,
): Promise<Prepared> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return passThrough(raw);
  const input = raw as Input;
  const actor = input.actor;
  // Only a seat of the campaign has secrets: anything else is left for the engine to refuse, with no file touched.
  const seats = seatsOf(state);
  if (typeof actor !== "string" || !seats.includes(actor)) return passThrough(input);
  switch (input.type) {
    // A seed already kept for the turn (its command refused, or its write failed where the log may yet hold it) is
    // committed to again rather than replaced: a log that took that command after all still finds its seed.
    case "CommitSeed": {
      if (input["seedHash"] !== undefined) return passThrough(input);
      const { seed, ...rest } = input;
      // On a branch whose fork voided the turn's seeds, the seed is a fresh one for the turn under way (D1).
      const again = reseeding(state.turnState);
      const seedTurn = again ? state.turn : turnToStart(state);
      const open = (again || !turnUnderWay(state)) && state.seedCommitments[actor] === undefined;
      const kept = open ? await secrets.playerSeed(actor, seedTurn) : undefined;
      const chosen = typeof seed === "string" ? seed : (kept ?? random(SEED_BYTES));
      return {
        command: { ...rest, seedHash: seedCommitment(chosen) },
        keep: open ? () => secrets.keepPlayerSeed(actor, seedTurn, chosen) : nothingToKeep,
      };
    }
    case "StartTurn": {
      if (input["hostSeedHash"] !== undefined) return passThrough(input);
      const { hostSeed, ...rest } = input;
      // Kept only when the engine can accept it: never before every player has committed (D1), nor during a turn.
      const open = !turnUnderWay(state) && state.setup!.players.every((p) => state.seedCommitments[p.id] !== undefined);
      const kept = open ? await secrets.hostSeed(turnToStart(state)) : undefined;
      const seed = typeof hostSeed === "string" ? hostSeed : (kept ?? random(SEED_BYTES));
      return {
        command: { ...rest, hostSeedHash: seedCommitment(seed) },
        keep: open ? () => secrets.keepHostSeed(turnToStart(state), seed) : nothingToKeep,
      };
    }
    case "ReseedTurn": {
      if (input["hostSeedHash"] !== undefined) return passThrough(input);
      const { hostSeed, ...rest } = input;
      const open =
        reseeding(state.turnState) && state.setup!.players.every((p) => state.seedCommitments[p.id] !== undefined);
      const kept = open ? await secrets.hostSeed(state.turn) : undefined;
      const seed = typeof hostSeed === "string" ? hostSeed : (kept ?? random(SEED_BYTES));
      return {
        command: { ...rest, hostSeedHash: seedCommitment(seed) },
        keep: open ? () => secrets.keepHostSeed(state.turn, seed) : nothingToKeep,
      };
    }
    case "RecommitOrder": {
      if (input["commitment"] !== undefined) return passThrough(input);
      const { order: written, salt: given, ...rest } = input;
      const army = String(input["army"]);
      // A decision of the player's on this line, with a salt of this machine's: never the parent line's order.
      const held = { order: checkOrder(written), salt: checkSalt(given) ?? random(SALT_BYTES) };
      return {
        command: {
          ...rest,
          commitment: orderCommitment({ campaign: state.campaign!, turn: state.turn, army, ...held }),
        },
        keep: keepOrderIfOpen(state, secrets, actor, army, held),
      };
    }
    case "GiveSeed": {
      if (input["seed"] !== undefined || !state.turnState) return passThrough(input);
      const seed = await secrets.playerSeed(actor, state.turn);
      if (!seed)
        throw new PrepareError(`${actor} holds no dice seed for turn ${state.turn}: its secrets were lost (D1)`);
      return passThrough({ ...input, seed });
    }
    case "RollInitiative": {
      if (input["rounds"] !== undefined || !state.turnState) return passThrough(input);
      const players = state.setup!.players.map((p) => p.id);
      return passThrough({
        ...input,
        rounds: rollInitiative(turnSeeds(state, await heldHostSeed(state, secrets)), players, state.turnState.diceUsed),
      });
    }
    case "ActivateArmy": {
      if (input["order"] === undefined && input["commitment"] === undefined)
        throw new PrepareError(`order: is required (T4); write one of ${ORDER_SPELLINGS.join(", ")}`);
      if (input["order"] === undefined) return passThrough(input);
      const { order: written, salt: given, ...rest } = input;
      const order = checkOrder(written);
      const salt = checkSalt(given);
      const army = String(input["army"]);
      // A3: an order a scouting made public is activated with the salt it was revealed with.
      const pledged = await heldSalt(state, secrets, actor, army, order);
      const held = { order, salt: salt ?? pledged ?? random(SALT_BYTES) };
      return {
        command: {
          ...rest,
          commitment: orderCommitment({ campaign: state.campaign!, turn: state.turn, army, ...held }),
        },
        keep: keepOrderIfOpen(state, secrets, actor, army, held),
      };
    }
    case "RevealOrder": {
      if (input["order"] !== undefined) {
        checkOrder(input["order"]);
        return passThrough(input);
      }
      const army = String(input["army"]);
      const held = await heldOrderFor(state, secrets, actor, army);
      if (!held)
        throw new PrepareError(`${actor} holds no order for ${army} in turn ${state.turn}: its secrets were lost`);
      return passThrough({ ...input, ...held });
    }
    case "ScoutArmy":
      return prepareScoutArmy(state, input, secrets, () => random(SALT_BYTES));
    case "AnswerScouting":
      return prepareAnswerScouting(state, input, secrets, () => random(SALT_BYTES));
    case "RollScouting": {
      if (input["rounds"] !== undefined || !state.turnState) return passThrough(input);
      const rounds = scoutingRounds(
        state,
        String(input["scouting"]),
        turnSeeds(state, await heldHostSeed(state, secrets)),
      );
      return passThrough(rounds ? { ...input, rounds } : input);
    }
    case "RollScenario":
    case "RollBattleConditions":
    case "RollGravityFlux":
    case "RollWhiteOut":
    case "RollSaves":
    case "RollBarrage": {
      if (input["dice"] !== undefined || !state.turnState) return passThrough(input);
      const dice = kitRollFaces(state, input, turnSeeds(state, await heldHostSeed(state, secrets)));
      return passThrough(dice ? { ...input, dice } : input);
    }
    case "ResolveBattleByModel": {
      if (input["dice"] !== undefined || !state.turnState) return passThrough(input);
      if (!battleModel)
        throw new PrepareError(
          "B4: this table has no battle model to draw the result with: take the host's steps with the CLI or the server",
        );
      const seeds = turnSeeds(state, await heldHostSeed(state, secrets));
      const dice: number[] = [];
      const first = state.turnState.diceUsed;
      const result = battleModel(state, String(input["battle"]), (sides) => {
        const face = rollDie(seeds, first + dice.length, sides);
        dice.push(face);
        return face;
      });
      return passThrough({ ...input, dice, result });
    }
    case "EndTurn": {
      if (input["hostSeed"] !== undefined || !state.turnState) return passThrough(input);
      return passThrough({ ...input, hostSeed: await heldHostSeed(state, secrets) });
    }
    default:
      return passThrough(input);
  }
}

async function heldHostSeed(state: CampaignView, secrets: SecretKeeper): Promise<string> {
  const hostSeed = await secrets.hostSeed(state.turn);
  if (!hostSeed) throw new PrepareError(`the host's dice seed for turn ${state.turn} is not in its secrets (D1)`);
  return hostSeed;
}
