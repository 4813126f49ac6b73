/**
 * The public API of Epic War Engine (`import ... from "epic-war-engine"`): a folder of campaigns and everything the
 * CLI does with one, the event and command types and their schemas, and the rules' words. The players' side (a seat's
 * commitments, secrets and chores, a server's client) is `epic-war-engine/client`. Nothing else is public: the paths
 * under dist/ may change in any release. docs/library.md is the guide; CHANGELOG.md names every change to this
 * surface and to the event catalogue.
 *
 * @packageDocumentation
 */
export {
  CampaignFolder,
  CommandRefusedError,
  type OpenOptions,
  type ReadOptions,
  type SeatOptions,
} from "./campaign-folder.js";

// The events: the catalogue, their types, and reading a stored event as the current version of its type.
export {
  catalogue,
  toCurrent,
  GENESIS_HASH,
  EventCatalogue,
  type CurrentEvent,
  type DomainEvent,
  type EventType,
  type NewEvent,
  type StoredEvent,
} from "../../events/index.js";
export { HOST, type BattleResult, type Order, type Square, type TitanDamage } from "../../events/common.js";
export type { OwedItem } from "../../events/StallClaimed.js";
export { NewEventSchema, StoredEventSchema } from "../../events/envelope.js";
export type { DataOf, EventDefinition, Upcaster } from "../../events/define.js";
export {
  EVENT_DEFINITIONS,
  type Definitions,
  type EventData,
  type EventOf,
  type SchemaProblem,
} from "../../events/index.js";
export { ScoutingBand } from "../../events/ScoutingRolled.js";

// The commands: their schemas and the check every command passes before any rule runs.
export {
  checkCommand,
  COMMAND_SCHEMAS,
  type Command,
  type CommandCheck,
  type CommandType,
} from "../engine/command-schemas.js";
export type { PlainCommand } from "../demo/plain-command.js";
export type { Answer, Clock, CommandHandler, Outcome, Refused } from "../engine/engine.js";
export { describeRefusal, type Refusal } from "../rules/refusal.js";

// The set-up file and the state.
export { checkSetupFile, SetupFile, type SetupCheck } from "../setup/setup-file.js";
export { loadSetupFile } from "../setup/setup-loader.js";
export { examplePath } from "../setup/package-files.js";
// The shape of the projected state, every part of it (projections/state.ts).
export type * from "../../projections/state.js";
export type * from "../../projections/battle-kit.js";
export type { SettledBattles } from "../../projections/settled-battles.js";
export type { AwardTable } from "../../projections/formulas.js";
export { campaignTotals, type DerivedView, type SideTotals, type TotalsSource } from "../../projections/derived.js";
export {
  viewEvent,
  viewState,
  type CampaignView,
  type EventView,
  type PlayerEvent,
  type ViewContext,
  type ViewedDomainEvent,
  type ViewedEntry,
  type Viewer,
} from "../views/view.js";
// Which parts of the state and of events are a side's secrets, and the shapes of their views (src/views/secrets.ts).
export type * from "../views/secrets.js";
export type * from "../views/secret-field.js";
export { FOG_EVENT_SECRETS } from "../views/fog.js";
export { HIDDEN, EVENT_SECRETS, STATE_SECRETS } from "../views/secrets.js";
export type * from "../../projections/scouting.js";
export type { ScoutingRound } from "../crypto/dice.js";

// History: positions of a line, the timeline's entries, the audit's report, branches, diffs, verification, export.
export { PHASES, type Position, type TurnPhase } from "../../replays/positions.js";
export type { TimelineEntry } from "../../replays/timeline.js";
// The shape of the audit's report (replays/audit-report.ts).
export type * from "../../replays/audit-report.js";
export type { LineDiff, Lines, StateAsSeen } from "../../replays/as-seen.js";
export type { BranchInfo } from "../../replays/branches.js";
export type { ArmySummary, Difference, LineSummary } from "../../replays/diff.js";
export type { BranchMeta, Head } from "../log/layout.js";
export type { ChainProblem, SignatureCounts, VerifyResult } from "../log/index.js";
export { AppendConflictError, BranchError, CorruptEventError } from "../log/index.js";
export { EXPORT_VERSION, type ExportHeader } from "../log/export-file.js";
export { ImportError } from "../log/import-file.js";

// The demo's scripted commanders: a legal next command for whoever the campaign waits on (for solo play and bots).
export { nextDecision as scriptedDecision } from "../demo/play.js";

// The campaign in players' words.
export { describeEvent } from "../words/events.js";
export { waitingFor } from "../words/waiting.js";
export type { Engagement } from "../../projections/engagement.js";
