import { redeemInvite, refusedAccess, type ServerConnection } from "../client/server.js";

/** The seat this browser is signed in as. */
export interface SeatRef {
  campaign: string;
  seat: string;
  /** The seat the computer plays in the campaign (docs/computer.md), if it plays one. */
  computer?: string | null;
}

/**
 * Signs the browser in: an invite link (`/join#<invite>`) is redeemed for the server's session cookie, and the
 * address is replaced by `/` at once, so that no invite stays in the address bar or the history. Then the seat the
 * cookie stands for; undefined when the browser has no session.
 */
export async function signIn(server: ServerConnection): Promise<SeatRef | undefined> {
  if (location.pathname === "/join" && location.hash.length > 1) {
    const invite = decodeURIComponent(location.hash.slice(1));
    history.replaceState(null, "", "/");
    await redeemInvite(server.base, invite);
  } else if (location.pathname === "/join") {
    history.replaceState(null, "", "/");
  }
  const answer = await server.send("GET", "/campaigns");
  if (answer.status === 401) return undefined;
  if (answer.status !== 200) throw refusedAccess(server.base, answer);
  const { campaigns } = answer.body as {
    campaigns: Array<{ id: string; seat: string | null; computer?: string | null }>;
  };
  const mine = campaigns.find((entry) => entry.seat !== null);
  return mine ? { campaign: mine.id, seat: mine.seat!, computer: mine.computer ?? null } : undefined;
}
