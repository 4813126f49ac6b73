import type { Engine } from "../engine.js";
import type { Campaigns } from "./campaigns.js";
import type { Feeds } from "./feed.js";
import type { SeatStore } from "./seat-store.js";

/** What every group of routes shares: the engine on the folder, the seats, the campaigns served and the open feeds. */
export interface ServerContext {
  engine: Engine;
  seats: SeatStore;
  campaigns: Campaigns;
  feeds: Feeds;
}
