/**
 * The server under abuse (docs/server.md, "Limits"): sign-ins are limited per address, no token or invite reaches
 * the request log, and the session cookie is Secure behind a TLS proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, CAMPAIGN, startTestServer, type TestServer } from "./support.js";

describe("sign-ins, the request log and the cookie", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      serving: { limits: { signInMax: 5, signInWindow: 60_000 }, trustProxy: "127.0.0.1" },
    });
  });
  afterAll(() => server.close());

  const signIn = (remoteAddress: string, invite: string, headers: Record<string, string> = {}) =>
    server.app.inject({ method: "POST", url: "/session", remoteAddress, headers, payload: { invite } });

  it("answers the sixth sign-in from one address in a window with 429 and Retry-After; other addresses go on", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const guessed = await signIn("10.0.0.7", `guess-${attempt}`);
      expect(guessed.statusCode).toBe(401);
    }
    const issued = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/invites`,
      headers: auth(server.tokens["host"]!),
      payload: { seat: "horde" },
    });
    const { invite } = issued.json<{ invite: string }>();
    // Even a good invite: the address has had its tries.
    const limited = await signIn("10.0.0.7", invite);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({ error: "rate-limited", message: expect.stringMatching(/retry in/) });
    expect(limited.headers["set-cookie"]).toBeUndefined();
    // Another address is not held back, and the invite was not spent.
    expect((await signIn("10.0.0.8", invite)).statusCode).toBe(200);
  });

  it("counts the address a trusted proxy forwards, not the proxy's", async () => {
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await signIn("127.0.0.1", `guess-${attempt}`, { "x-forwarded-for": "192.0.2.1" })).statusCode).toBe(401);
    expect((await signIn("127.0.0.1", "guess", { "x-forwarded-for": "192.0.2.1" })).statusCode).toBe(429);
    expect((await signIn("127.0.0.1", "guess", { "x-forwarded-for": "192.0.2.2" })).statusCode).toBe(401);
  });

  it("never writes a token or an invite to the request log, even one a client put in the URL", async () => {
    const token = server.tokens["concord"]!;
    const invite = "kRhOVP8zX6Qlmwt2ZTJ7wp1NkztbqIJzjNMiwWpR0V0";
    const urls = [
      `/campaigns/${CAMPAIGN}/state?token=${token}`,
      `/campaigns/${CAMPAIGN}/log?after=1&access_token=${encodeURIComponent(token)}`,
      `/join?invite=${invite}`,
      `/campaigns/${CAMPAIGN}/feed?x=${token}`,
      `/${invite}`,
    ];
    for (const url of urls) {
      const answer = await server.app.inject({ method: "GET", url });
      expect(answer.statusCode, url).toBeGreaterThanOrEqual(400);
    }
    const log = server.logLines.join("\n");
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(4));
    expect(log).not.toContain(invite);
    const logged = server.logLines.map((line) => JSON.parse(line) as { msg: string; url?: string });
    expect(logged.filter((line) => line.msg === "request").map((line) => line.url)).toEqual(
      expect.arrayContaining([
        `/campaigns/${CAMPAIGN}/state?token=[redacted]`,
        `/campaigns/${CAMPAIGN}/log?after=1&access_token=[redacted]`,
        "/join?invite=[redacted]",
        `/campaigns/${CAMPAIGN}/feed?x=ewt_[redacted]`,
        "/[redacted]",
      ]),
    );
  });

  it("sets the cookie's Secure flag behind a trusted TLS proxy (X-Forwarded-Proto: https), not over plain HTTP", async () => {
    const invite = async () =>
      (
        await server.app.inject({
          method: "POST",
          url: `/campaigns/${CAMPAIGN}/invites`,
          headers: auth(server.tokens["host"]!),
          payload: { seat: "horde" },
        })
      ).json<{ invite: string }>().invite;
    const proxied = await signIn("127.0.0.1", await invite(), {
      "x-forwarded-for": "192.0.2.50",
      "x-forwarded-proto": "https",
    });
    expect(proxied.statusCode, proxied.body).toBe(200);
    expect(proxied.headers["set-cookie"]).toMatch(/; Secure/);
    const plain = await signIn("10.0.0.10", await invite());
    expect(plain.headers["set-cookie"]).toMatch(/^epicwar_session=ewt_/);
    expect(plain.headers["set-cookie"]).not.toMatch(/Secure/);
    // From an address it does not trust, the header is a client's claim, not a proxy's.
    const untrusted = await signIn("10.0.0.9", await invite(), { "x-forwarded-proto": "https" });
    expect(untrusted.headers["set-cookie"]).not.toMatch(/Secure/);
  });
});
