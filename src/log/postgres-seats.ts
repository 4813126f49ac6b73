import type pg from "pg";
import type { ComputerSeatRows, SeatRecords, SeatRow, SeatRows } from "./event-store.js";
import { inTransaction } from "./postgres-checkout.js";

/** A row of seat_tokens: a null campaign and seat for the operator. */
interface TokenRow {
  hash: string;
  campaign: string | null;
  seat: string | null;
}

const seatOfRow = (row: TokenRow): "operator" | SeatRow =>
  row.campaign === null || row.seat === null ? "operator" : { campaign: row.campaign, seat: row.seat };

/** Inserts invite rows, keeping those already there. */
async function insertInvites(
  on: Pick<pg.Pool, "query">,
  invites: ReadonlyArray<{ hash: string } & SeatRow>,
): Promise<void> {
  if (invites.length === 0) return;
  await on.query(
    `INSERT INTO seat_invites (hash, campaign, seat) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
     ON CONFLICT (hash) DO NOTHING`,
    [invites.map((row) => row.hash), invites.map((row) => row.campaign), invites.map((row) => row.seat)],
  );
}

/**
 * The servers' seats on PostgreSQL (tables seat_tokens, seat_invites, seated_campaigns; postgres-schema.ts). A redeem
 * deletes its invite and inserts its token in one transaction: of two servers redeeming one invite at once, the
 * second deletes nothing and gives no token.
 */
export function postgresSeatRows(pool: pg.Pool): SeatRows {
  return {
    token: async (hash) => {
      const { rows } = await pool.query<TokenRow>("SELECT hash, campaign, seat FROM seat_tokens WHERE hash = $1", [
        hash,
      ]);
      return rows[0] && seatOfRow(rows[0]);
    },
    held: async (hashes) => {
      if (hashes.length === 0) return new Set();
      const { rows } = await pool.query<{ hash: string }>("SELECT hash FROM seat_tokens WHERE hash = ANY($1::text[])", [
        [...hashes],
      ]);
      return new Set(rows.map((row) => row.hash));
    },
    addFirstOperator: (hash, keep) =>
      inTransaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('epicwar operator token'))");
        const { rows } = await client.query("SELECT 1 FROM seat_tokens WHERE campaign IS NULL LIMIT 1");
        if (rows.length > 0) return false;
        await keep();
        await client.query("INSERT INTO seat_tokens (hash) VALUES ($1)", [hash]);
        return true;
      }),
    claimCampaign: async (campaign) =>
      (await pool.query("INSERT INTO seated_campaigns (campaign) VALUES ($1) ON CONFLICT DO NOTHING", [campaign]))
        .rowCount === 1,
    releaseCampaign: (campaign) =>
      inTransaction(pool, async (client) => {
        await client.query("DELETE FROM seat_invites WHERE campaign = $1", [campaign]);
        await client.query("DELETE FROM seated_campaigns WHERE campaign = $1", [campaign]);
      }),
    seated: async (campaign) =>
      (await pool.query("SELECT 1 FROM seated_campaigns WHERE campaign = $1", [campaign])).rows.length > 0,
    addInvites: (invites) => insertInvites(pool, invites),
    redeem: (inviteHash, tokenHash) =>
      inTransaction(pool, async (client) => {
        const { rows } = await client.query<SeatRow>(
          "DELETE FROM seat_invites WHERE hash = $1 RETURNING campaign, seat",
          [inviteHash],
        );
        const seat = rows[0];
        if (seat)
          await client.query("INSERT INTO seat_tokens (hash, campaign, seat) VALUES ($1, $2, $3)", [
            tokenHash,
            seat.campaign,
            seat.seat,
          ]);
        return seat && { campaign: seat.campaign, seat: seat.seat };
      }),
    revokeToken: async (hash) => {
      await pool.query("DELETE FROM seat_tokens WHERE hash = $1", [hash]);
    },
    revokeSeat: ({ campaign, seat }) =>
      inTransaction(pool, async (client) => {
        await client.query("DELETE FROM seat_invites WHERE campaign = $1 AND seat = $2", [campaign, seat]);
        return (await client.query("DELETE FROM seat_tokens WHERE campaign = $1 AND seat = $2", [campaign, seat]))
          .rowCount!;
      }),
    importRecords: (records) =>
      inTransaction(pool, async (client) => {
        const tokens = Object.entries(records.tokens).map(([hash, entry]) => ({
          hash,
          ...("operator" in entry ? { campaign: null, seat: null } : entry),
        }));
        await client.query(
          `INSERT INTO seat_tokens (hash, campaign, seat) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
           ON CONFLICT (hash) DO NOTHING`,
          [tokens.map((row) => row.hash), tokens.map((row) => row.campaign), tokens.map((row) => row.seat)],
        );
        await insertInvites(
          client,
          Object.entries(records.invites).map(([hash, seat]) => ({ hash, ...seat })),
        );
        await client.query("INSERT INTO seated_campaigns (campaign) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING", [
          records.seated,
        ]);
      }),
    exportRecords: async () => {
      const records: SeatRecords = { tokens: {}, invites: {}, seated: [] };
      const tokens = await pool.query<TokenRow>("SELECT hash, campaign, seat FROM seat_tokens ORDER BY hash");
      for (const row of tokens.rows) {
        const seat = seatOfRow(row);
        records.tokens[row.hash] = seat === "operator" ? { operator: true } : seat;
      }
      const invites = await pool.query<{ hash: string } & SeatRow>(
        "SELECT hash, campaign, seat FROM seat_invites ORDER BY hash",
      );
      for (const row of invites.rows) records.invites[row.hash] = { campaign: row.campaign, seat: row.seat };
      const seated = await pool.query<{ campaign: string }>("SELECT campaign FROM seated_campaigns ORDER BY campaign");
      records.seated = seated.rows.map((row) => row.campaign);
      return records;
    },
  };
}

/** The computer's settings of each campaign on PostgreSQL (table computer_seats; postgres-schema.ts). */
export function postgresComputerSeats(pool: pg.Pool): ComputerSeatRows {
  return {
    read: async (campaign) =>
      (await pool.query<{ settings: string }>("SELECT settings FROM computer_seats WHERE campaign = $1", [campaign]))
        .rows[0]?.settings,
    write: async (campaign, settings) => {
      await pool.query(
        `INSERT INTO computer_seats (campaign, settings) VALUES ($1, $2)
         ON CONFLICT (campaign) DO UPDATE SET settings = EXCLUDED.settings`,
        [campaign, settings],
      );
    },
    forget: async (campaign) => {
      await pool.query("DELETE FROM computer_seats WHERE campaign = $1", [campaign]);
    },
  };
}
