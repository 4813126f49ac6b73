import { Type, type Static } from "@sinclair/typebox";
import { Id } from "../../events/common.js";
import type { Engine } from "../engine/engine.js";
import type { Campaigns } from "./campaigns.js";
import type { ServerComputers } from "./computer-seats.js";
import type { Feeds } from "./feed.js";
import type { LineContexts } from "./line-contexts.js";
import type { SeatStore } from "./seat-store.js";
import type { ServerKey } from "./server-key.js";
import type { ViewChains } from "./view-chains.js";

/**
 * What every group of routes shares: the engine on the folder, the seats, the campaigns served, the open feeds and the
 * view context of each line, kept up to date between requests, and the server's key.
 */
export interface ServerContext {
  engine: Engine;
  seats: SeatStore;
  campaigns: Campaigns;
  /** The computer's seats (docs/computer.md): its steps taken after the appends that leave them due. */
  computers: ServerComputers;
  feeds: Feeds;
  lineContexts: LineContexts;
  /** The server's own key, which signs every answer to a command (its receipt). */
  serverKey: ServerKey;
  /** Each seat's view chain of each line, whose head every receipt signs. */
  viewChains: ViewChains;
}

/** The `:id` of every campaign route: a campaign id, looked up among the campaigns served, never made into a path. */
export const CampaignParams = Type.Object({ id: Id });
export type CampaignParams = Static<typeof CampaignParams>;

/**
 * A count the protocol takes (a seq, a turn) from `minimum` on: a safe integer, so that no number the client sent is
 * rounded into another (2^53 + 1 is read as 2^53) or past every seq there can be (1e300).
 */
export const Count = (minimum: 0 | 1) => Type.Integer({ minimum, maximum: Number.MAX_SAFE_INTEGER });
