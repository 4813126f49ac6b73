import type { Commander, Order, Square } from "../../events/common.js";
import { turnToStart } from "../../projections/turns.js";
import type { ActivationState, ArmyState, CampaignState, TurnState } from "../../projections/state.js";
import { squaresPaid, stepPricing } from "../rules/terrain-costs.js";
import { armiesOnMap, battlesThisTurn } from "../rules/action-common.js";
import { squareKey } from "../../projections/grid.js";
import { MemorySecrets } from "../client/secrets.js";
import { SALT_BYTES, SEED_BYTES } from "../client/prepare.js";
import { orderCommitment, seedCommitment } from "../crypto/commitments.js";
import { drawnArmy, drawnBattle, drawnLedger } from "./fog.js";
import { HIDDEN, seesAll, viewState, type CampaignView, type ViewContext, type Viewer } from "../views/view.js";

/** A moment the forecast cannot start from, or a viewer it cannot start for: the reason, naming the rule. */
export class ForecastError extends Error {
  override readonly name = "ForecastError";
}

/**
 * What a forecast starts from, and all it ever reads of the campaign: the truth for the organiser and for anyone once
 * the campaign has finished, else the seat's view (viewState) and the seat's own orders not yet revealed. Hidden
 * values are drawn afresh for every run (sampledStart), never read from the log.
 */
export interface ForecastStart {
  view: CampaignView;
  /** The player whose view it is, or null for the whole truth (the organiser's, or anyone's once the line has ended). */
  seat: string | null;
  /** The seat's own orders of the turn under way, not yet revealed (from its secrets). */
  knownOrders: Record<string, Order>;
}

/**
 * The starting point of a forecast for a viewer, from the campaign at that moment (`context`, as `state --as` judges
 * it) and whether its line has finished by now; `knownOrders` are the viewer's own hidden orders (ownHeldOrders).
 */
export function forecastStart(
  context: ViewContext,
  viewer: Viewer,
  lineFinished: boolean,
  knownOrders: Record<string, Order> = {},
): ForecastStart {
  const status = context.state.status;
  if (status !== "active" && status !== "finished")
    throw new ForecastError("the campaign is still being set up at that moment (S1-S8): forecast from turn 1 on");
  if (context.state.paused)
    throw new ForecastError("the campaign is paused at that moment (O1): forecast from a moment it is not");
  const unfought = unfoughtMeeting(context.state);
  if (unfought)
    throw new ForecastError(
      `the line stops inside a command's events at event #${context.state.seq}: ${unfought} share a square with no battle there, as only a move of an army onto its enemy leaves them for the battle it starts next (M2, B1); forecast from a moment between two commands`,
    );
  if (seesAll(viewer) || lineFinished) return { view: context.state, seat: null, knownOrders: {} };
  return { view: viewState(context.state, viewer, context), seat: viewer, knownOrders };
}

/**
 * Armies of both sides on one square with no battle of this turn there (M2, B1): a moment between the move of an army
 * onto its enemy and the BattleStarted of the same command, which a line forked there stops at.
 */
function unfoughtMeeting(state: CampaignState): string | undefined {
  const fought = new Set(battlesThisTurn(state).map((battle) => squareKey(battle.at)));
  const bySquare = new Map<string, ArmyState[]>();
  for (const army of armiesOnMap(state)) {
    const key = squareKey(army.at!);
    bySquare.set(key, [...(bySquare.get(key) ?? []), army]);
  }
  for (const [key, armies] of bySquare)
    if (!fought.has(key) && new Set(armies.map((army) => army.player)).size > 1)
      return armies.map((army) => army.id).join(" and ");
  return undefined;
}

/** Hex from the simulation's own random stream: its seeds and salts. */
export function randomHexFrom(random: () => number): (bytes: number) => string {
  return (bytes) => {
    let hex = "";
    for (let i = 0; i < bytes; i++)
      hex += Math.floor(random() * 256)
        .toString(16)
        .padStart(2, "0");
    return hex;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

/** S8: a commander the seat cannot see, drawn from the units of the army's roster, each unit alike. */
function sampledCommander(army: ArmyState, random: () => number): Commander {
  const units = army.formations.flatMap((formation) =>
    Object.entries(formation.units)
      .filter(([, count]) => count > 0)
      .map(([unitType]) => ({ formation: formation.id, unitType })),
  );
  if (units.length === 0) return army.commander;
  return pick(units, random);
}

/** T4: the orders that pay for the move an army made, any of which its hidden order may be. */
export function ordersForMove(state: CampaignState, army: ArmyState, path: readonly Square[]): Order[] {
  if (path.length === 0) return ["firstFire", "fortify", "advance", "charge"];
  const pricing = stepPricing(state.setup!);
  return (["advance", "charge"] as const).filter(
    (order) => squaresPaid(pricing, order, army.moveRate, path) === path.length,
  );
}

/** Names the first value hidden in the view's records that the forecast has no way to draw (all but commanders, S8). */
function unsampled(view: CampaignState): string | undefined {
  for (const part of ["armies", "objectives", "homeBases", "ledgers", "battles"] as const)
    for (const [key, entry] of Object.entries(view[part] as unknown as Record<string, Record<string, unknown>>))
      for (const [field, value] of Object.entries(entry))
        if (part === "armies" && field === "commander") continue;
        else if (
          value === HIDDEN ||
          (value !== null && typeof value === "object" && Object.values(value).includes(HIDDEN))
        )
          return `${part}.${key}.${field}`;
  return undefined;
}

/**
 * One run's starting state: the view with every value hidden from the seat drawn from the simulation's `random`, and
 * the secrets the run's players and host hold. What fog of war (A2) hides of the enemy is drawn from what the seat sees
 * (fog.ts); the enemy's commanders (S8) are drawn from their rosters; every order
 * not yet revealed is the seat's own where it is known, else drawn from the orders that pay for the move the army made
 * (T4); the dice seeds not yet revealed (D1) are the simulation's own, so no die of the campaign's is ever read.
 */
export async function sampledStart(
  start: ForecastStart,
  random: () => number,
): Promise<{ state: CampaignState; secrets: MemorySecrets }> {
  const secrets = new MemorySecrets();
  const hex = randomHexFrom(random);
  const view = start.view as CampaignState;
  // A2, A6: what fog hides of the enemy drawn first, then S8: its commanders among the units it then has.
  const armies: Record<string, ArmyState> = {};
  for (const [id, army] of Object.entries(view.armies)) {
    const drawn = drawnArmy(view, army, random);
    armies[id] =
      (drawn.commander as unknown) === HIDDEN ? { ...drawn, commander: sampledCommander(drawn, random) } : drawn;
  }
  const drawnRosters = new Set(
    Object.values(view.armies)
      .filter((a) => a.formations !== armies[a.id]!.formations)
      .map((a) => a.id),
  );
  const ledgers = Object.fromEntries(Object.entries(view.ledgers).map(([id, ledger]) => [id, drawnLedger(ledger)]));
  const battles = Object.fromEntries(
    Object.entries(view.battles).map(([id, battle]) => [
      id,
      drawnBattle(battle, armies, drawnRosters, view.setup!.options.vpTable),
    ]),
  );
  let state: CampaignState = { ...view, armies, ledgers, battles };
  const hidden = unsampled(state);
  if (hidden !== undefined)
    throw new ForecastError(
      `${hidden} is hidden from the seat and the forecast has no way to draw it: forecast as the organiser (--as host), or once the campaign has finished`,
    );

  const seedCommitments: Record<string, string> = {};
  const nextTurn = turnToStart(state);
  for (const player of Object.keys(state.seedCommitments)) {
    const seed = hex(SEED_BYTES);
    seedCommitments[player] = seedCommitment(seed);
    await secrets.keepPlayerSeed(player, nextTurn, seed);
  }
  state = { ...state, seedCommitments };

  const turn = state.turnState;
  if (turn && turn.hostSeed === null) {
    const hostSeed = hex(SEED_BYTES);
    await secrets.keepHostSeed(state.turn, hostSeed);
    const playerSeedHashes = { ...turn.playerSeedHashes };
    for (const player of Object.keys(playerSeedHashes)) {
      if (turn.playerSeeds[player] !== undefined) continue;
      const seed = hex(SEED_BYTES);
      playerSeedHashes[player] = seedCommitment(seed);
      await secrets.keepPlayerSeed(player, state.turn, seed);
    }
    const activations: Record<string, ActivationState> = {};
    for (const [id, activation] of Object.entries(turn.activations)) {
      if (activation.order !== null) {
        activations[id] = activation;
        continue;
      }
      const order = start.knownOrders[id] ?? pick(ordersForMove(state, state.armies[id]!, activation.path), random);
      const salt = hex(SALT_BYTES);
      await secrets.keepOrder(activation.player, state.turn, id, { order, salt });
      activations[id] = {
        ...activation,
        commitment: orderCommitment({ campaign: state.campaign!, turn: state.turn, army: id, order, salt }),
      };
    }
    const turnState: TurnState = { ...turn, hostSeedHash: seedCommitment(hostSeed), playerSeedHashes, activations };
    state = { ...state, turnState };
  }
  return { state, secrets };
}
