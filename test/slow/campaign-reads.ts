/**
 * A campaign on a served `epicwar` as a test reads it with a token of its own (an organiser's, a seat's), and the
 * operator's invites: what the browser tests check pages against.
 */
import type { CampaignView } from "../../src/views/view.js";

/** An invite to a seat of a campaign, issued by the operator. */
export async function issueInvite(url: string, operatorToken: string, campaign: string, seat: string): Promise<string> {
  const answer = await fetch(`${url}/campaigns/${campaign}/invites`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
    body: JSON.stringify({ seat }),
  });
  return ((await answer.json()) as { invite: string }).invite;
}

/** A token of the test's own for a seat of a campaign (the organiser's: `host`), from an invite the operator issues. */
export async function seatToken(url: string, operatorToken: string, campaign: string, seat = "host"): Promise<string> {
  const invite = await issueInvite(url, operatorToken, campaign, seat);
  return await fetch(`${url}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ invite }),
  }).then(async (answer) => ((await answer.json()) as { token: string }).token);
}

/**
 * Reads of a campaign with a token. `until` waits until the campaign (or a branch) is in the state a page's action
 * leads to: checked now, then again at each event the server's feed brings, so the wait ends with the event that makes
 * it true (no polling, no sleep).
 */
export function campaignReads(url: () => string, campaign: string, token: () => string, timeout: number) {
  const read = async <T>(path: string): Promise<T> => {
    const answer = await fetch(`${url()}${path}`, { headers: { authorization: `Bearer ${token()}` } });
    if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  /** The campaign's own line now, or a branch's (`line`). */
  const stateNow = async (line?: string) =>
    (await read<{ state: CampaignView }>(`/campaigns/${campaign}/state${line ? `?branch=${line}` : ""}`)).state;
  const until = async (what: string, test: (state: CampaignView) => boolean, line?: string) => {
    const state = await stateNow(line);
    if (test(state)) return state;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeout);
    try {
      const feed = await fetch(`${url()}/campaigns/${campaign}/feed${line ? `?branch=${line}` : ""}`, {
        headers: { authorization: `Bearer ${token()}`, "last-event-id": String(state.seq) },
        signal: abort.signal,
      });
      for await (const _chunk of feed.body!) {
        const now = await stateNow(line);
        if (test(now)) return now;
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
    throw new Error(`${campaign} never came to ${what} within ${timeout / 1000} s`);
  };
  return { read, stateNow, until };
}
