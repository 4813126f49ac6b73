import type { Order, Square } from "../../events/common.js";
import { sameSquare, squareKey } from "../../projections/grid.js";
import type { ArmyState, CampaignState } from "../../projections/state.js";
import type { MemorySecrets } from "../client/secrets.js";
import { reach } from "../demo/pathing.js";
import type { PlainCommand } from "../demo/plain-command.js";
import { seededRandom } from "../demo/rng.js";
import { seatDecision } from "../demo/seat.js";
import { playOn } from "../forecast/simulate.js";
import { endPhaseCandidates } from "./end-phase.js";
import { outlook } from "./outlook.js";
import { distanceToWanted, wantedSquares } from "./wanted-squares.js";
import { scriptedPolicy, type Policy } from "../forecast/policies.js";
import { ordersForMove, sampledStart, type ForecastStart } from "../forecast/start.js";
import { workingCopy } from "../../projections/working-copy.js";
import { pendingDefenders } from "../rules/action-common.js";
import { orderAllowance } from "../rules/terrain-costs.js";
import type { CampaignView } from "../views/view.js";

/** How long the searching level may think about one decision, and how many rounds of forecasts it plays at most. */
export interface SearchBudget {
  /** Milliseconds per decision; a round begun is finished, so a decision may run over by one round. */
  milliseconds: number;
  /** Rounds at most: each round plays every candidate once on one draw of what is hidden. */
  rounds: number;
  /** The clock the budget is kept by, in milliseconds (performance.now); never read by the rules. */
  now: () => number;
}

/** Rounds of forecasts a decision plays at most, however long its budget: beyond some hundreds the choice is settled. */
export const MAX_SEARCH_ROUNDS = 200;
/** A duel's rounds per decision unless told: by count, not time, so that a duel comes out the same on any machine. */
export const DUEL_SEARCH_ROUNDS = 2;
/** Marches kept as candidates: the ones that end nearest a target. */
const MARCHES = 3;

/**
 * The searching level's choice where the scripted commanders would make one for `seat`: the scripted choice and its
 * alternatives (each order the move allows for the same army, its other attacks, its best marches, holding its
 * square; the other side as first to move) are each played on by short forecasts from the seat's view, every round on
 * the same draw of what is hidden, and the one with the best mean score is taken. End phase choices weigh their own
 * alternatives (endPhaseCandidates); the battle kit's steps are the scripted commanders'.
 */
export async function searchedDecision(
  view: CampaignView,
  seat: string,
  knownOrders: Record<string, Order>,
  budget: SearchBudget,
): Promise<PlainCommand | undefined> {
  const scored = await scoredCandidates(view, seat, knownOrders, budget);
  if (scored.length === 0) return undefined;
  const best = Math.max(...scored.map((c) => c.score));
  return scored.find((c) => c.score === best)!.command;
}

/** A candidate of the search, with the sum of its forecasts' scores (the scripted choice alone goes unscored). */
export interface ScoredCandidate {
  command: PlainCommand;
  score: number;
}

/** The searching level's candidates where the seat has a decision to make, each with its forecasts' total score. */
export async function scoredCandidates(
  view: CampaignView,
  seat: string,
  knownOrders: Record<string, Order>,
  budget: SearchBudget,
): Promise<ScoredCandidate[]> {
  const scripted = seatDecision(view, seat);
  if (!scripted) return [];
  const candidates = candidatesFor(view as CampaignState, scripted);
  if (candidates.length < 2) return [{ command: scripted, score: 0 }];
  const start: ForecastStart = { view, seat, knownOrders };
  const totals = candidates.map(() => 0);
  const began = budget.now();
  // Every draw is seeded from what the seat sees (the campaign, its seq): the same view gives the same choice.
  const seed = `${view.campaign}/${view.seq}/${seat}`;
  for (let round = 0; round < budget.rounds; round++) {
    if (round > 0 && budget.now() - began >= budget.milliseconds) break;
    for (const [index, candidate] of candidates.entries()) {
      // Drawn again for each candidate, from the same stream: the same draw, with secrets of its own to play on.
      const sampled = await sampledStart(start, seededRandom(`${seed}/draw/${round}`));
      totals[index]! += await scoreOf(sampled, candidate, seat, `${seed}/play/${round}`);
    }
  }
  return candidates.map((command, index) => ({ command, score: totals[index]! }));
}

/** One forecast of a candidate: it is played first, then both sides as the scripted commanders, battles by the model. */
async function scoreOf(
  sampled: { state: CampaignState; secrets: MemorySecrets },
  candidate: PlainCommand,
  seat: string,
  seed: string,
): Promise<number> {
  let played = false;
  let refused = false;
  const policy: Policy = (state) => {
    if (played) return scriptedPolicy(state, () => 0);
    played = true;
    return candidate;
  };
  const turn = sampled.state.turn;
  // An End phase choice is judged where the next turn's Action phase leaves it: a new army's square, an army brought
  // back to strength, the Reserves kept, each shows in the moves and battles it makes possible.
  const endPhase = sampled.state.phase === "end";
  const { state } = await playOn(workingCopy(sampled.state), sampled.secrets, {
    run: 0,
    random: seededRandom(seed),
    lastTurn: endPhase ? turn + 1 : turn,
    // The Action phase played out; its battles are judged by their odds (outlook), none drawn.
    until: (state) => state.phase !== "action" && (!endPhase || state.turn > turn),
    policy,
    // A candidate the rules refuse (S7: an army stacked on its home base must leave it, say) is no choice at all.
    fallback: (state) => {
      refused ||= played;
      return scriptedPolicy(state, () => 0);
    },
  });
  return refused ? Number.NEGATIVE_INFINITY : outlook(state, seat);
}

/** The scripted choice first, then its alternatives the rules may take; none where the choice has none. */
function candidatesFor(state: CampaignState, scripted: PlainCommand): PlainCommand[] {
  if (state.phase === "end") return endPhaseCandidates(state, scripted);
  if (scripted.type === "ChooseFirst") {
    const other = state.setup!.players.map((p) => p.id).find((p) => p !== scripted.first)!;
    return [scripted, { ...scripted, first: other }];
  }
  if (scripted.type !== "ActivateArmy") return [scripted];
  const army = state.armies[scripted.army as string]!;
  const activation = (path: Square[], order: Order): PlainCommand => ({ ...scripted, order, path });
  const engaged = pendingDefenders(state).some((battle) => battle.defender.army === army.id);
  if (engaged) return unique([scripted, ...ordersForMove(state, army, []).map((order) => activation([], order))]);
  const { paths, attacks } = reach(state, army, orderAllowance("charge", army.moveRate));
  const moves: Square[][] = [[], ...attacks.map((attack) => attack.path), ...nearestMarches(state, army, paths)];
  const all = moves.flatMap((path) => ordersForMove(state, army, path).map((order) => activation(path, order)));
  return unique([scripted, ...all]);
}

/** The marches that end nearest a square the seat wants (an objective it does not hold, the enemy's home base). */
function nearestMarches(state: CampaignState, army: ArmyState, paths: ReadonlyMap<string, Square[]>): Square[][] {
  const wanted = wantedSquares(state, army.player);
  const nearest = (path: Square[]) => distanceToWanted(wanted, path[path.length - 1]!);
  return [...paths.values()]
    .filter((path) => path.length > 0 && !sameSquare(path[path.length - 1]!, army.at!))
    .sort((a, b) => nearest(a) - nearest(b) || a.length - b.length)
    .slice(0, MARCHES);
}

function unique(commands: PlainCommand[]): PlainCommand[] {
  const seen = new Set<string>();
  return commands.filter((command) => {
    const key = `${String(command["order"])}|${((command["path"] as Square[] | undefined) ?? []).map(squareKey).join(" ")}|${String(command["first"])}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
