export {
  checkAppend,
  EventStore,
  sealEvent,
  StoreOpenError,
  type CheckedEvent,
  type ImportedStream,
  type StoreOptions,
} from "./store.js";
export { AppendConflictError, BranchError, CorruptEventError, EventExistsError, InvalidEventError } from "./errors.js";
export { blameBrokenLog, verifyStream, type VerifyResult, type ChainProblem } from "./verify.js";
export { sha256Hex } from "./hash.js";
export { canonicalJson } from "../commitments.js";
export type { BranchMeta, Head, Segment } from "./layout.js";
