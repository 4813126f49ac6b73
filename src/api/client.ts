/**
 * The players' side of Epic War Engine as a library (`import ... from "epic-war-engine/client"`), for a bot or a
 * second front end that acts as a player without reimplementing the protocol: a seat (Table) that prepares commands
 * from its secrets and takes its chores, the secrets keepers, the commitments, and the client of a campaign server.
 *
 * @packageDocumentation
 */
export { Table, ChoreRefusedError, takeChoresInTurn, type TableOptions, type WrittenEvents } from "../client/table.js";
export type { BattleModel } from "../client/prepare.js";
export type { RandomHex } from "../client/prepare.js";
export { dueChores, rejectedReveals } from "../client/chores.js";
export {
  FileSecrets,
  MemorySecrets,
  secretsOfLog,
  SecretsError,
  SeedKeptError,
  type HashedLog,
  type HeldOrder,
  type PartySecrets,
  type SecretKeeper,
} from "../client/secrets.js";
export { orderCommitment, seedCommitment, canonicalJson, randomHex, type OrderSecret } from "../crypto/commitments.js";
export { newDeviceKey, type DeviceKey, type HeldKey, type SeatKey } from "../crypto/signatures.js";
export { RemoteCampaign, type RemoteOutcome, type SeatEvent } from "../client/remote.js";
export {
  MemoryReceiptBook,
  latestCheckpoint,
  type KeptReceipt,
  type KeptReceipts,
  type ReceiptBook,
  type SentCommands,
} from "../client/receipts.js";
export { FileReceiptBook } from "../client/receipt-file.js";
export { ReceiptError, type Receipt, type ReceiptText, type TextVerifier } from "../crypto/receipts.js";
export type { ViewEntry } from "../views/chain.js";
export {
  ServerConnection,
  ServerError,
  ServerOfflineError,
  redeemInvite,
  fetchTransport,
  type ConnectionOptions,
  type ServerAnswer,
  type Transport,
  type TransportAnswer,
  type TransportRequest,
} from "../client/server.js";
export type { ReconnectOptions } from "../client/reconnect.js";
export { nodeHttpTransport } from "../client/http-transport.js";
export { followFeed, type FeedOptions } from "../client/feed.js";
