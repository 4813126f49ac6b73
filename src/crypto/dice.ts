import { hmacSha256 } from "./hashes.js";

/**
 * Provably fair dice (D1, docs/fair-dice.md). Die number `index` of a turn is drawn from
 * HMAC-SHA-256(key = host seed, message = "epicwar-die|<campaign>|<turn>|<index>|<player seeds in set-up order, |-joined>|<block>"),
 * reading bytes in order and rejecting any byte >= the largest multiple of `sides` below 256, so every face is equally
 * likely; a further block is hashed in the rare case all 32 bytes are rejected. A player's client checks its dice with
 * this very module in Node or in a browser (src/crypto/hashes.ts: pure JavaScript in a browser, Node's own in Node).
 */
export interface DiceSeeds {
  campaign: string;
  turn: number;
  hostSeed: string;
  /** Each player's seed for the turn, in set-up order. */
  playerSeeds: readonly string[];
}

export function rollDie(seeds: DiceSeeds, index: number, sides = 6): number {
  const limit = 256 - (256 % sides);
  for (let block = 0; ; block++) {
    const message = ["epicwar-die", seeds.campaign, seeds.turn, index, ...seeds.playerSeeds, block].join("|");
    const bytes = hmacSha256(seeds.hostSeed, message);
    for (const byte of bytes) if (byte < limit) return (byte % sides) + 1;
  }
}

/** `count` dice from index `first` on. */
export function rollDice(seeds: DiceSeeds, first: number, count: number, sides = 6): number[] {
  return Array.from({ length: count }, (_, i) => rollDie(seeds, first + i, sides));
}

/** T2: each player rolls a d6 (one die each per round, players in set-up order), ties rerolled. */
export function rollInitiative(
  seeds: DiceSeeds,
  players: readonly string[],
  firstDie: number,
): Array<Record<string, number>> {
  const rounds: Array<Record<string, number>> = [];
  let die = firstDie;
  for (;;) {
    const values = rollDice(seeds, die, players.length);
    die += players.length;
    rounds.push(Object.fromEntries(players.map((player, i) => [player, values[i]!])));
    if (new Set(values).size === values.length) return rounds;
  }
}

/** One round of an A3 scouting roll: each side's 2D6. */
export interface ScoutingRound {
  scout: [number, number];
  scouted: [number, number];
}

/**
 * A3: both sides roll 2D6 (the scout's two dice, then the scouted army's two, per round, from `firstDie` on), each
 * total with its bonus; ties of the totals are rerolled.
 */
export function rollScouting(
  seeds: DiceSeeds,
  firstDie: number,
  scoutBonus: number,
  scoutedBonus: number,
): ScoutingRound[] {
  const rounds: ScoutingRound[] = [];
  for (let die = firstDie; ; die += 4) {
    const [a, b, c, d] = rollDice(seeds, die, 4) as [number, number, number, number];
    rounds.push({ scout: [a, b], scouted: [c, d] });
    if (a + b + scoutBonus !== c + d + scoutedBonus) return rounds;
  }
}
