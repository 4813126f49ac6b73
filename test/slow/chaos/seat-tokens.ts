/**
 * Tokens of a soak's own, issued through the server as an organiser would issue them (an invite from the operator,
 * redeemed at `POST /session`), and requests that ride out the server's outages: each is tried again, a bounded
 * number of times, while the server cannot be reached or answers 5xx.
 */

/** How long one request may keep failing (or be held back by a rate limit) before the soak gives up on it. */
const RETRY_FOR_MS = 120_000;

export class ServerDown extends Error {}

/**
 * `fetch`, tried again every 200 ms while the connection fails or the answer is 5xx, and after the `Retry-After` of a
 * 429, for up to two minutes.
 */
export async function fetchThroughOutages(url: () => string, path: string, init: RequestInit = {}): Promise<Response> {
  const deadline = Date.now() + RETRY_FOR_MS;
  let last = "";
  for (let attempt = 0; attempt < RETRY_FOR_MS / 200 && Date.now() < deadline; attempt++) {
    try {
      const answer = await fetch(`${url()}${path}`, init);
      if (answer.status < 500 && answer.status !== 429) return answer;
      last = `${answer.status} ${await answer.text()}`;
      const retryAfter = Number(answer.headers.get("retry-after") ?? 0);
      if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, 60) * 1000));
    } catch (error) {
      last = String((error as Error).cause ?? error);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new ServerDown(`${init.method ?? "GET"} ${path} failed for ${RETRY_FOR_MS / 1000} s: ${last}`);
}

/** JSON from a route that must answer `status`. */
export async function jsonThroughOutages<T>(
  url: () => string,
  path: string,
  init: RequestInit & { token: string; status?: number },
): Promise<T> {
  const { token, status = 200, ...rest } = init;
  const answer = await fetchThroughOutages(url, path, {
    ...rest,
    headers: {
      authorization: `Bearer ${token}`,
      ...(rest.body !== undefined && { "content-type": "application/json" }),
      ...rest.headers,
    },
  });
  const text = await answer.text();
  if (answer.status !== status) throw new Error(`${rest.method ?? "GET"} ${path}: ${answer.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A fresh invite for a seat of a campaign, issued with the operator token. */
export async function invite(url: () => string, operator: string, campaign: string, seat: string): Promise<string> {
  const { invite } = await jsonThroughOutages<{ invite: string }>(url, `/campaigns/${campaign}/invites`, {
    method: "POST",
    token: operator,
    status: 201,
    body: JSON.stringify({ seat }),
  });
  return invite;
}

/**
 * A new token for a seat: a fresh invite, redeemed. An invite redeemed by a request whose answer the server's kill cut
 * off is used up, so a 401 takes another invite (at most five).
 */
export async function signIn(url: () => string, operator: string, campaign: string, seat: string): Promise<string> {
  let last = 0;
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = await invite(url, operator, campaign, seat);
    const answer = await fetchThroughOutages(url, "/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ invite: code }),
    });
    if (answer.status === 200) return ((await answer.json()) as { token: string }).token;
    last = answer.status;
  }
  throw new Error(`POST /session for ${campaign} ${seat}: ${last} for five fresh invites`);
}
