import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { Ajv } from "ajv";
import { Id, Sha256 } from "../../events/common.js";
import { describeAjvError } from "../../events/index.js";
import { replaceDurably } from "../client/secrets.js";
import { errorReason } from "../log/errors.js";
import { SerialQueue } from "../log/queue.js";

/*
 * The server's own record of who may do what (docs/server.md): `seats.json` in the server-data folder, outside the
 * shared log. It holds only SHA-256 hashes of tokens and invites, so a copy of it gives nobody a way in.
 */

/** A seat: one party of one campaign, a player id or "host" (the organiser). */
export interface SeatRef {
  campaign: string;
  seat: string;
}

/** Who a token belongs to: the operator (creates campaigns, issues invites, acts as no party), or one seat. */
export type Caller = { kind: "operator"; tokenHash: string } | ({ kind: "seat"; tokenHash: string } & SeatRef);

const SeatRefSchema = Type.Object({ campaign: Id, seat: Id }, { additionalProperties: false });
const SeatsFile = Type.Object(
  {
    version: Type.Literal(1),
    /** Token hash -> the seat it acts for, or the operator. */
    tokens: Type.Record(Sha256, Type.Union([Type.Object({ operator: Type.Literal(true) }), SeatRefSchema])),
    /** Invite hash -> the seat it is for; removed when redeemed. */
    invites: Type.Record(Sha256, SeatRefSchema),
    /** The campaigns whose seats have been issued: the server issues no more invites for them by itself. */
    seated: Type.Array(Id),
  },
  { additionalProperties: false },
);
type SeatsFile = Static<typeof SeatsFile>;

const checkSeatsFile = new Ajv({ strict: true }).compile(SeatsFile);

/** The server-data folder cannot be read or written: the server does not start, or the change is not made. */
export class SeatStoreError extends Error {
  override readonly name = "SeatStoreError";
  constructor(
    message: string,
    /** What the system said, where a read or write failed. */
    readonly reason = message,
  ) {
    super(message);
  }
}

export const TOKEN_PREFIX = "ewt_";
const RANDOM_BYTES = 32;
const hashOf = (secret: string) => createHash("sha256").update(secret, "utf8").digest("hex");
const randomSecret = () => randomBytes(RANDOM_BYTES).toString("base64url");

/**
 * Seats, invites and tokens. Every change is written whole to `seats.json` (a temporary file flushed and renamed, the
 * folder flushed) before it takes effect, one change at a time, so that an invite redeemed twice at once gives one
 * token and a crash never leaves half a file.
 */
export class SeatStore {
  private readonly queue = new SerialQueue();

  private constructor(
    readonly folder: string,
    private data: SeatsFile,
  ) {}

  /**
   * Opens the seats of a server-data folder, creating it on first start with an operator token: that token is returned
   * once (only its hash is kept), for the operator to be told.
   */
  /**
   * The seats of a server-data folder; on its first opening, a new operator token too, given to `keepOperatorToken`
   * (which keeps it for the operator) before its hash is stored: a token that could not be kept never comes into force,
   * and the next opening makes another.
   */
  static async open(
    folder: string,
    options: { keepOperatorToken?: (token: string) => Promise<void> } = {},
  ): Promise<{ seats: SeatStore; operatorToken?: string }> {
    const path = join(folder, "seats.json");
    let text: string | undefined;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT")
        throw new SeatStoreError(`cannot read ${path}: ${(error as Error).message}`);
    }
    if (text !== undefined) {
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        throw new SeatStoreError(`${path} is not valid JSON (${(error as Error).message}); restore it from a copy`);
      }
      if (!checkSeatsFile(data)) {
        const { field, message } = describeAjvError(checkSeatsFile.errors, "");
        throw new SeatStoreError(`${path}: ${field} ${message}; restore it from a copy`);
      }
      return { seats: new SeatStore(folder, data) };
    }
    const operatorToken = TOKEN_PREFIX + randomSecret();
    const seats = new SeatStore(folder, {
      version: 1,
      tokens: { [hashOf(operatorToken)]: { operator: true } },
      invites: {},
      seated: [],
    });
    await options.keepOperatorToken?.(operatorToken);
    await seats.change(() => {});
    return { seats, operatorToken };
  }

  /** Who a token is, or undefined for a token never issued or revoked since. */
  caller(token: string): Caller | undefined {
    const tokenHash = hashOf(token);
    const entry = this.data.tokens[tokenHash];
    if (!entry) return undefined;
    return "operator" in entry ? { kind: "operator", tokenHash } : { kind: "seat", tokenHash, ...entry };
  }

  /** Whether a token (by its hash) is valid: issued and not revoked since. */
  holds(tokenHash: string): boolean {
    return Object.hasOwn(this.data.tokens, tokenHash);
  }

  /** Whether the seats of a campaign have been issued (by the server at start, or with the campaign). */
  seated(campaign: string): boolean {
    return this.data.seated.includes(campaign);
  }

  /** One invite for each seat, the campaign then counting as seated. Returns seat -> invite. */
  async seatCampaign(campaign: string, seats: readonly string[]): Promise<Record<string, string>> {
    const invites = Object.fromEntries(seats.map((seat) => [seat, randomSecret()]));
    await this.change((data) => {
      for (const [seat, invite] of Object.entries(invites)) data.invites[hashOf(invite)] = { campaign, seat };
      if (!data.seated.includes(campaign)) data.seated.push(campaign);
    });
    return invites;
  }

  /** A new single-use invite for a seat. */
  async invite(ref: SeatRef): Promise<string> {
    const invite = randomSecret();
    await this.change((data) => void (data.invites[hashOf(invite)] = { campaign: ref.campaign, seat: ref.seat }));
    return invite;
  }

  /** Exchanges an invite for a token of its seat; the invite is spent. Undefined for an unknown or spent invite. */
  redeem(invite: string): Promise<({ token: string } & SeatRef) | undefined> {
    const inviteHash = hashOf(invite);
    return this.queue.run(async () => {
      const ref = this.data.invites[inviteHash];
      if (!ref) return undefined;
      const token = TOKEN_PREFIX + randomSecret();
      await this.changeNow((data) => {
        delete data.invites[inviteHash];
        data.tokens[hashOf(token)] = ref;
      });
      return { token, ...ref };
    });
  }

  /** Revokes one token (a session's own). */
  revokeToken(tokenHash: string): Promise<void> {
    return this.change((data) => void delete data.tokens[tokenHash]);
  }

  /** Revokes every token of a seat, and its invites not yet redeemed. Returns how many tokens were revoked. */
  async revokeSeat(ref: SeatRef): Promise<number> {
    let revoked = 0;
    const isSeat = (entry: object) =>
      "campaign" in entry && entry.campaign === ref.campaign && "seat" in entry && entry.seat === ref.seat;
    await this.change((data) => {
      for (const [hash, entry] of Object.entries(data.tokens))
        if (isSeat(entry)) {
          delete data.tokens[hash];
          revoked++;
        }
      for (const [hash, entry] of Object.entries(data.invites)) if (isSeat(entry)) delete data.invites[hash];
    });
    return revoked;
  }

  private change(edit: (data: SeatsFile) => void): Promise<void> {
    return this.queue.run(() => this.changeNow(edit));
  }

  /** Writes the changed seats durably, then uses them: a change that fails to be written is not made. */
  private async changeNow(edit: (data: SeatsFile) => void): Promise<void> {
    const next = structuredClone(this.data);
    edit(next);
    try {
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      await replaceDurably(this.folder, join(this.folder, "seats.json"), `${JSON.stringify(next, null, 2)}\n`);
    } catch (error) {
      const reason = errorReason(error);
      throw new SeatStoreError(`cannot write ${join(this.folder, "seats.json")}: ${reason}`, reason);
    }
    this.data = next;
  }
}
