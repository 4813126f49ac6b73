/**
 * What the scale-out soak keeps of a campaign that did not reach its winner, to find why: its log from the last
 * TurnStarted on (each event's type, actor and seq, with the data of the events that commit to, reveal or judge
 * orders), and for each of its seats what the seat's client saw last on its feed, what the seat reads now and owes by
 * its chores and commanders, the orders its secrets keep for that turn, and its secrets and receipts files, copied to a
 * folder kept after the test.
 */
import { cp, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { dueChores } from "../../../src/client/chores.js";
import { seatDecision } from "../../../src/demo/seat.js";
import type { PartySecrets } from "../../../src/client/party-secrets.js";
import type { CampaignView } from "../../../src/views/view.js";

/** The events whose data tells how an order was committed to, revealed or judged. */
const TOLD_IN_FULL = /^(ArmyActivated|OrderRevealed|RevealRejected|OrderViolated|Scouting\w+|BattleStarted)$/;

/** One seat of a stuck campaign, as the soak plays it. */
export interface StuckSeat {
  player: string;
  /** The seq of the last event the seat's feed brought its commanders. */
  toldSeq: number;
  /** The campaign as the seat reads it now. */
  state: () => Promise<CampaignView>;
  /** The folder the seat keeps its secrets and receipts in (`<folder>/<campaign>/<seat>.json`). */
  secretsDir: string;
}

/** A few lines on each of `campaigns`, read from the database at `url`; the seats' files copied under a kept folder. */
export async function describeStuck(
  url: string,
  campaigns: ReadonlyMap<string, readonly StuckSeat[]>,
): Promise<string[]> {
  if (campaigns.size === 0) return [];
  const kept = await mkdtemp(join(tmpdir(), "epicwar-soak-stuck-"));
  const lines = [`stuck campaigns: seats' secrets and receipts kept in ${kept}`];
  const reader = new pg.Client({ connectionString: url });
  await reader.connect();
  try {
    for (const [campaign, seats] of campaigns) {
      const { rows } = await reader.query<{ seq: string; body: string }>(
        "SELECT seq, body FROM events WHERE stream = $1 ORDER BY seq",
        [campaign],
      );
      const events = rows.map((row) => ({ seq: Number(row.seq), ...(JSON.parse(row.body) as LoggedEvent) }));
      const turnStart = events.map((event) => event.type).lastIndexOf("TurnStarted");
      const turn = (events[turnStart]?.data as { turn?: number } | undefined)?.turn ?? 0;
      lines.push(`${campaign}: log head #${events.at(-1)?.seq ?? 0}; from the last TurnStarted on:`);
      for (const event of events.slice(Math.max(0, turnStart)))
        lines.push(
          `  #${event.seq} ${event.type} by ${event.actor}${TOLD_IN_FULL.test(event.type) ? ` ${JSON.stringify(event.data)}` : ""}`,
        );
      for (const seat of seats) {
        const state = await seat.state().catch((error: Error) => error);
        const now =
          state instanceof Error
            ? `cannot read its state (${state.message})`
            : `reads #${state.seq} now, chores due ${JSON.stringify(dueChores(state, new Set([seat.player])))}, decision ${JSON.stringify(seatDecision(state, seat.player) ?? null)}`;
        lines.push(`  ${seat.player}: feed told up to #${seat.toldSeq}; ${now}`);
        const folder = join(kept, `${campaign}-${seat.player}`);
        await cp(join(seat.secretsDir, campaign), folder, { recursive: true });
        const secrets = await readFile(join(folder, `${seat.player}.json`), "utf8")
          .then((text) => JSON.parse(text) as PartySecrets)
          .catch((error: Error) => error.message);
        const orders = typeof secrets === "string" ? secrets : ordersOfTurn(secrets, turn);
        lines.push(`    its orders kept for turn ${turn} ${JSON.stringify(orders)} (files in ${folder})`);
      }
    }
  } finally {
    await reader.end();
  }
  return lines;
}

/** The orders a seat's secrets keep for one turn, the last kept and those kept before it, by army. */
function ordersOfTurn(secrets: PartySecrets, turn: number): Record<string, unknown> {
  const ofTurn = (kept: Record<string, unknown> = {}) =>
    Object.fromEntries(Object.entries(kept).filter(([key]) => key.startsWith(`${turn}/`)));
  return { last: ofTurn(secrets.orders), earlier: ofTurn(secrets.earlierOrders) };
}

interface LoggedEvent {
  type: string;
  actor: string;
  data: unknown;
}
