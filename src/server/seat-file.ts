import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { Ajv } from "ajv";
import { Id, Sha256 } from "../../events/common.js";
import { describeAjvError } from "../../events/index.js";
import { replaceDurably } from "../client/secrets.js";
import { errorReason, type SeatRecords, type SeatRow, type SeatRows } from "../log/index.js";
import { SerialQueue } from "../log/queue.js";

/*
 * The seats of a server that has its log to itself (LevelDB): `seats.json` in its server-data folder, outside the log.
 * It holds only SHA-256 hashes of tokens and invites, so a copy of it gives nobody a way in.
 */

/** The seats file's name in the server-data folder. */
export const SEATS_FILE = "seats.json";

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

/** The server-data folder or the seats' database cannot be read or written: the server does not start, or the change is not made. */
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

/** The records of a seats file, or undefined where there is none; a file that is not one is refused. */
export async function readSeatsFile(folder: string): Promise<SeatRecords | undefined> {
  const path = join(folder, SEATS_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SeatStoreError(`cannot read ${path}: ${(error as Error).message}`);
  }
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
  return data;
}

const isSeat = (entry: object, ref: SeatRow) =>
  "campaign" in entry && entry.campaign === ref.campaign && "seat" in entry && entry.seat === ref.seat;

/**
 * Seat rows kept in `seats.json`. Every change is written whole (a temporary file flushed and renamed, the folder
 * flushed) before it takes effect, one change at a time, so that an invite redeemed twice at once gives one token and
 * a crash never leaves half a file.
 */
export class FileSeatRows implements SeatRows {
  private readonly queue = new SerialQueue();

  private constructor(
    private readonly folder: string,
    private data: SeatsFile,
    /** Whether no seats file has been written yet: only then is an operator token made. */
    private fresh: boolean,
  ) {}

  static async open(folder: string): Promise<FileSeatRows> {
    const records = await readSeatsFile(folder);
    const data = { version: 1 as const, ...(records ?? { tokens: {}, invites: {}, seated: [] }) };
    return new FileSeatRows(folder, data, records === undefined);
  }

  async token(hash: string): Promise<"operator" | SeatRow | undefined> {
    const entry = this.data.tokens[hash];
    return entry && ("operator" in entry ? "operator" : entry);
  }

  async held(hashes: readonly string[]): Promise<Set<string>> {
    return new Set(hashes.filter((hash) => Object.hasOwn(this.data.tokens, hash)));
  }

  addFirstOperator(hash: string, keep: () => Promise<void>): Promise<boolean> {
    return this.queue.run(async () => {
      if (!this.fresh) return false;
      await keep();
      await this.changeNow((data) => void (data.tokens[hash] = { operator: true }));
      return true;
    });
  }

  claimCampaign(campaign: string): Promise<boolean> {
    return this.queue.run(async () => {
      if (this.data.seated.includes(campaign)) return false;
      await this.changeNow((data) => void data.seated.push(campaign));
      return true;
    });
  }

  releaseCampaign(campaign: string): Promise<void> {
    return this.change((data) => {
      data.seated = data.seated.filter((seated) => seated !== campaign);
      for (const [hash, entry] of Object.entries(data.invites))
        if (entry.campaign === campaign) delete data.invites[hash];
    });
  }

  async seated(campaign: string): Promise<boolean> {
    return this.data.seated.includes(campaign);
  }

  addInvites(invites: ReadonlyArray<{ hash: string } & SeatRow>): Promise<void> {
    return this.change((data) => {
      for (const { hash, campaign, seat } of invites) data.invites[hash] = { campaign, seat };
    });
  }

  redeem(inviteHash: string, tokenHash: string): Promise<SeatRow | undefined> {
    return this.queue.run(async () => {
      const ref = this.data.invites[inviteHash];
      if (!ref) return undefined;
      await this.changeNow((data) => {
        delete data.invites[inviteHash];
        data.tokens[tokenHash] = ref;
      });
      return ref;
    });
  }

  revokeToken(hash: string): Promise<void> {
    return this.change((data) => void delete data.tokens[hash]);
  }

  async revokeSeat(ref: SeatRow): Promise<number> {
    let revoked = 0;
    await this.change((data) => {
      for (const [hash, entry] of Object.entries(data.tokens))
        if (isSeat(entry, ref)) {
          delete data.tokens[hash];
          revoked++;
        }
      for (const [hash, entry] of Object.entries(data.invites)) if (isSeat(entry, ref)) delete data.invites[hash];
    });
    return revoked;
  }

  importRecords(records: SeatRecords): Promise<void> {
    return this.change((data) => {
      data.tokens = { ...records.tokens, ...data.tokens };
      data.invites = { ...records.invites, ...data.invites };
      data.seated = [...new Set([...data.seated, ...records.seated])];
    });
  }

  async exportRecords(): Promise<SeatRecords> {
    const { tokens, invites, seated } = structuredClone(this.data);
    return { tokens, invites, seated };
  }

  private change(edit: (data: SeatsFile) => void): Promise<void> {
    return this.queue.run(() => this.changeNow(edit));
  }

  /** Writes the changed seats durably, then uses them: a change that fails to be written is not made. */
  private async changeNow(edit: (data: SeatsFile) => void): Promise<void> {
    const next = structuredClone(this.data);
    edit(next);
    const path = join(this.folder, SEATS_FILE);
    try {
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      await replaceDurably(this.folder, path, `${JSON.stringify(next, null, 2)}\n`);
    } catch (error) {
      const reason = errorReason(error);
      throw new SeatStoreError(`cannot write ${path}: ${reason}`, reason);
    }
    this.data = next;
    this.fresh = false;
  }
}
