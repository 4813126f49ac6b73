import type { Catalogue, Commander, Edge, Force, MapDefinition, Options, RosterFormation, Square } from "../events/common.js";
import type { AwardTable } from "./derived.js";

export interface PlayerState {
  id: string;
  name: string;
  baseLine: Edge;
}

export interface ArmyState {
  id: string;
  player: string;
  name: string;
  formations: RosterFormation[];
  commander: Commander;
  /** S8/E6: points of the formations that still have units. */
  points: number;
  /** S5 */
  moveRate: number;
  /** Its square on the map, or null while not deployed. */
  at: Square | null;
}

export interface ObjectiveState {
  id: string;
  placedBy: string;
  at: Square;
  /** The side holding it (E1), or null while nobody has captured it. */
  heldBy: string | null;
}

export interface HomeBaseState {
  player: string;
  at: Square;
  /** The side holding it: its owner until an enemy seizes it (E1). */
  heldBy: string;
}

export type CampaignStatus = "new" | "setup" | "active" | "finished";
export type Phase = "setup" | "action" | "battle" | "end";

export interface CampaignSetup {
  name: string;
  map: MapDefinition;
  players: PlayerState[];
  /** M and N (S2) and F = M x N. */
  force: Force & { total: number };
  options: Options;
  catalogue: Catalogue;
  /** S3 */
  cvpTarget: number;
  /** S4 */
  awards: AwardTable;
}

export interface CampaignState {
  campaign: string | null;
  status: CampaignStatus;
  /** Seq of the last event folded in. */
  seq: number;
  setup: CampaignSetup | null;
  turn: number;
  phase: Phase;
  armies: Record<string, ArmyState>;
  objectives: Record<string, ObjectiveState>;
  homeBases: Record<string, HomeBaseState>;
}

export const initialState: CampaignState = {
  campaign: null,
  status: "new",
  seq: 0,
  setup: null,
  turn: 0,
  phase: "setup",
  armies: {},
  objectives: {},
  homeBases: {},
};
