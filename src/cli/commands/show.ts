import { toCurrent } from "../../../events/index.js";
import type { Engine } from "../../engine.js";
import { logLine } from "../describe.js";
import { renderState } from "../render.js";
import { HOST, type Order } from "../../../events/common.js";
import { viewState } from "../../views.js";
import { CliError, EXIT } from "../errors.js";
import { verifyStream } from "../../log/index.js";
import type { Seat } from "../seat.js";

/** The state as the seat's player may see it (everything the log shows without --as), as text or JSON. */
export async function showState(seat: Seat, json: boolean): Promise<string> {
  const campaign = await seat.campaign();
  const state = await seat.engine.state(campaign);
  const viewer = seat.acting ? [...seat.acting][0] : undefined;
  if (viewer !== undefined && viewer !== HOST && !state.setup?.players.some((p) => p.id === viewer)) {
    throw new CliError(`"${viewer}" is not a player of ${campaign}`);
  }
  const view = viewState(state, viewer === HOST ? undefined : viewer);
  const heldOrders: Record<string, Order> = {};
  if (viewer && viewer !== HOST) {
    const secrets = seat.secrets(campaign);
    for (const army of Object.values(state.armies).filter((a) => a.player === viewer)) {
      const held = await secrets.order(viewer, state.turn, army.id);
      if (held) heldOrders[army.id] = held.order;
    }
  }
  if (json) return JSON.stringify(viewer && viewer !== HOST ? { ...view, heldOrders } : view, null, 2);
  return renderState(view, viewer && viewer !== HOST ? { viewer, heldOrders } : {});
}

/** Prints the log, one event a line: as stored (JSON Lines) or in players' words. */
export async function showLog(engine: Engine, campaign: string, json: boolean, print: (line: string) => void): Promise<void> {
  for await (const batch of engine.store.readBatches(campaign)) {
    for (const event of batch) print(json ? JSON.stringify(event) : logLine(toCurrent(event)));
  }
}

/** After showing a campaign, warns (exit 2) when its log no longer verifies: what was shown cannot be trusted. */
export async function warnIfBroken(engine: Engine, campaign: string): Promise<void> {
  const result = await verifyStream(engine.store, campaign);
  if (!result.ok) {
    throw new CliError(`warning: the log of ${campaign} fails verification at seq ${result.seq} (${result.problem}): what is shown may be forged; run epicwar verify`, EXIT.broken);
  }
}
