import { createHash, randomBytes } from "node:crypto";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import type { SeatRows } from "../log/index.js";
import { FileSeatRows, readSeatsFile, SEATS_FILE, SeatStoreError } from "./seat-file.js";

export { SeatStoreError } from "./seat-file.js";

/*
 * The server's own record of who may do what (docs/server.md, "Seats"): `seats.json` in the server-data folder where
 * the server has its log to itself; in the database beside the log where several servers share it (PostgreSQL), so
 * that every instance admits every player. Either holds only SHA-256 hashes of tokens and invites.
 */

/** A seat: one party of one campaign, a player id or "host" (the organiser). */
export interface SeatRef {
  campaign: string;
  seat: string;
}

/** Who a token belongs to: the operator (creates campaigns, issues invites, acts as no party), or one seat. */
export type Caller = { kind: "operator"; tokenHash: string } | ({ kind: "seat"; tokenHash: string } & SeatRef);

export const TOKEN_PREFIX = "ewt_";
const RANDOM_BYTES = 32;
const hashOf = (secret: string) => createHash("sha256").update(secret, "utf8").digest("hex");
const randomSecret = () => randomBytes(RANDOM_BYTES).toString("base64url");

/**
 * How long a token found in the database is taken as valid without asking again, in milliseconds: a token revoked at
 * another instance is refused here within this time (at once at the instance that revoked it).
 */
const SHARED_TOKEN_MS = 1_000;
/** Tokens remembered at most; past this the memory starts afresh. */
const SHARED_TOKENS_KEPT = 10_000;

/** The name a seats file imported into the database is given, so that it is imported once. */
export const IMPORTED_SEATS_FILE = `${SEATS_FILE}.imported`;

/** Seats, invites and tokens over their rows (a seats file, or the shared database's tables). */
export class SeatStore {
  /** Tokens recently found in shared rows, and when: asked again after SHARED_TOKEN_MS. */
  private readonly recent = new Map<string, { caller: Caller; at: number }>();

  private constructor(
    /** The server's own folder (its webhooks, the computer's settings). */
    readonly folder: string,
    private readonly rows: SeatRows,
    /** Whether other servers change the rows too (then a token found is asked again after SHARED_TOKEN_MS). */
    private readonly shared: boolean,
  ) {}

  /**
   * The seats of a server-data folder, or the shared rows of a database when given: where there are none yet, a new
   * operator token too, given to `keepOperatorToken` (which keeps it for the operator) before its hash is stored, so
   * that a token that could not be kept never comes into force (the next opening makes another). A seats file left in
   * the folder of a server that now keeps its seats in the database is added to them once, and renamed
   * `seats.json.imported`.
   */
  static async open(
    folder: string,
    options: { keepOperatorToken?: (token: string) => Promise<void>; shared?: SeatRows } = {},
  ): Promise<{ seats: SeatStore; operatorToken?: string }> {
    const rows = options.shared ?? (await FileSeatRows.open(folder));
    if (options.shared) await importSeatsFile(folder, options.shared);
    const seats = new SeatStore(folder, rows, options.shared !== undefined);
    const operatorToken = TOKEN_PREFIX + randomSecret();
    const added = await rows.addFirstOperator(hashOf(operatorToken), async () =>
      options.keepOperatorToken?.(operatorToken),
    );
    return added ? { seats, operatorToken } : { seats };
  }

  /** Who a token is, or undefined for a token never issued or revoked since. */
  async caller(token: string): Promise<Caller | undefined> {
    const tokenHash = hashOf(token);
    const recent = this.recent.get(tokenHash);
    if (recent && Date.now() - recent.at < SHARED_TOKEN_MS) return recent.caller;
    const entry = await this.rows.token(tokenHash);
    if (!entry) {
      this.recent.delete(tokenHash);
      return undefined;
    }
    const caller: Caller =
      entry === "operator" ? { kind: "operator", tokenHash } : { kind: "seat", tokenHash, ...entry };
    if (this.shared) {
      if (this.recent.size >= SHARED_TOKENS_KEPT) this.recent.clear();
      this.recent.set(tokenHash, { caller, at: Date.now() });
    }
    return caller;
  }

  /** Of these token hashes, the ones still valid: issued and not revoked since. */
  held(tokenHashes: readonly string[]): Promise<Set<string>> {
    return this.rows.held(tokenHashes);
  }

  /** Whether the seats of a campaign have been issued (by a server at its start, or with the campaign). */
  seated(campaign: string): Promise<boolean> {
    return this.rows.seated(campaign);
  }

  /**
   * Marks a campaign's seats as issued before it is created, so that no other server issues invites for it when it
   * finds it: false where they were marked already. `release` undoes it when the creation is refused.
   */
  claim(campaign: string): Promise<boolean> {
    return this.rows.claimCampaign(campaign);
  }

  release(campaign: string): Promise<void> {
    return this.rows.releaseCampaign(campaign);
  }

  /** One invite for each seat of a claimed campaign. Returns seat -> invite. */
  async issueInvites(campaign: string, seats: readonly string[]): Promise<Record<string, string>> {
    const invites = Object.fromEntries(seats.map((seat) => [seat, randomSecret()]));
    await this.rows.addInvites(
      Object.entries(invites).map(([seat, invite]) => ({ hash: hashOf(invite), campaign, seat })),
    );
    return invites;
  }

  /**
   * One invite for each seat, the campaign then counting as seated; undefined where its seats were issued already (by
   * another server, which found it first).
   */
  async seatCampaign(campaign: string, seats: readonly string[]): Promise<Record<string, string> | undefined> {
    if (!(await this.claim(campaign))) return undefined;
    return this.issueInvites(campaign, seats);
  }

  /** A new single-use invite for a seat. */
  async invite(ref: SeatRef): Promise<string> {
    return (await this.issueInvites(ref.campaign, [ref.seat]))[ref.seat]!;
  }

  /** Exchanges an invite for a token of its seat; the invite is spent. Undefined for an unknown or spent invite. */
  async redeem(invite: string): Promise<({ token: string } & SeatRef) | undefined> {
    const token = TOKEN_PREFIX + randomSecret();
    const ref = await this.rows.redeem(hashOf(invite), hashOf(token));
    return ref && { token, campaign: ref.campaign, seat: ref.seat };
  }

  /** Revokes one token (a session's own). */
  async revokeToken(tokenHash: string): Promise<void> {
    await this.rows.revokeToken(tokenHash);
    this.recent.delete(tokenHash);
  }

  /** Revokes every token of a seat, and its invites not yet redeemed. Returns how many tokens were revoked. */
  async revokeSeat(ref: SeatRef): Promise<number> {
    const revoked = await this.rows.revokeSeat(ref);
    for (const [hash, { caller }] of this.recent)
      if (caller.kind === "seat" && caller.campaign === ref.campaign && caller.seat === ref.seat)
        this.recent.delete(hash);
    return revoked;
  }
}

/** Adds a server-data folder's seats file to the shared rows, once: the file is then renamed. */
async function importSeatsFile(folder: string, rows: SeatRows): Promise<void> {
  const records = await readSeatsFile(folder);
  if (!records) return;
  await rows.importRecords(records);
  const path = join(folder, SEATS_FILE);
  await rename(path, join(folder, IMPORTED_SEATS_FILE)).catch((error: Error) => {
    throw new SeatStoreError(`cannot rename ${path} once imported into the database: ${error.message}`);
  });
}
