export { checkAppend, envelopeProblem, sealEvent, type CheckedEvent } from "./append-check.js";
export { LevelEventStore } from "./store.js";
export { EventStore, isDatabaseUrl, storeLocation } from "./open.js";
export { POSTGRES_DEFAULTS } from "./postgres-store.js";
export type {
  ImportedStream,
  Lease,
  PostgresOptions,
  ReadPoint,
  SealedTexts,
  SeatRecords,
  SeatRow,
  SeatRows,
  ComputerSeatRows,
  SnapshotCache,
  StoreOptions,
} from "./event-store.js";
export {
  AppendConflictError,
  BranchError,
  CorruptEventError,
  DatabaseAwayError,
  EventExistsError,
  InvalidEventError,
  StoreFailedError,
  StoreOpenError,
  errorReason,
  storeFailure,
} from "./errors.js";
export { blameBrokenLog, verifyStream, type VerifyResult, type ChainProblem } from "./verify.js";
export type { SignatureCounts } from "./signature-check.js";
export { sha256Hex } from "./hash.js";
export { canonicalJson } from "../crypto/commitments.js";
export type { BranchMeta, Head, Segment } from "./layout.js";
