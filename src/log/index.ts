export { EventStore, sealEvent, StoreOpenError, type StoreOptions } from "./store.js";
export { AppendConflictError, CorruptEventError, InvalidEventError } from "./errors.js";
export { verifyStream, type VerifyResult, type ChainProblem } from "./verify.js";
export { canonicalJson, sha256Hex } from "./hash.js";
export type { Head } from "./layout.js";
