/**
 * expectedSeq across instances: two servers on one PostgreSQL database, each with its own engine, are sent the same
 * command at the same expectedSeq at once, round after round. A command is written only on the state its client saw,
 * so exactly one of each pair is answered 200 and the other 409 stale, and the log holds one event a round.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Engine } from "../../src/engine/engine.js";
import { buildServer } from "../../src/server/app.js";
import { SeatStore } from "../../src/server/seat-store.js";
import { freshDatabase } from "../support/postgres.js";
import { ashfallSetup, auth, CAMPAIGN, PlayerClient, type TestServer } from "../server/support.js";

const ROUNDS = 300;

describe("expectedSeq on several servers over one PostgreSQL database", () => {
  it(`the same command at the same seq sent to two servers at once: one 200 and one 409, ${ROUNDS} times`, async () => {
    const store = await freshDatabase("race");
    const dir = await mkdtemp(join(tmpdir(), "epicwar-race-"));
    const engines = [await Engine.open(store), await Engine.open(store)] as const;
    // One seat store for both: a token redeemed at one server is good at the other, as on a shared database.
    const { seats, operatorToken } = await SeatStore.open(join(dir, "server"));
    const secrets = join(dir, "secrets");
    const first = await buildServer({ engine: engines[0], seats, secrets });
    const apps = [first];
    try {
      const created = await first.inject({
        method: "POST",
        url: "/campaigns",
        headers: auth(operatorToken!),
        payload: await ashfallSetup(),
      });
      expect(created.statusCode, created.body).toBe(201);
      const tokens: Record<string, string> = {};
      for (const [seat, invite] of Object.entries(created.json<{ invites: Record<string, string> }>().invites)) {
        const session = await first.inject({ method: "POST", url: "/session", payload: { invite } });
        tokens[seat] = session.json<{ token: string }>().token;
      }
      // Made after the campaign, which a server learns of when it starts; only the first takes the host's chores.
      apps.push(await buildServer({ engine: engines[1], seats, secrets, hostChores: false }));
      const server = { app: first, engine: engines[0], tokens } as unknown as TestServer;
      const players = ["concord", "horde"].map((player) => new PlayerClient(server, player));
      const rolled = async () =>
        (await engines[0].store.readAll(CAMPAIGN)).some((event) => event.type === "InitiativeRolled");
      for (let step = 0; !(await rolled()); step++) {
        expect(step, "turn 1's initiative within 10 rounds of chores").toBeLessThan(10);
        for (const player of players) await player.takeChores();
      }

      const statuses = new Map<string, number>();
      /** Commands answered 200 whose events follow another's: decided on a state their client never saw. */
      let decidedLater = 0;
      const start = (await engines[0].store.head(CAMPAIGN)).seq;
      for (let round = 1; round <= ROUNDS; round++) {
        const expectedSeq = (await engines[0].store.head(CAMPAIGN)).seq;
        const command = {
          actor: "host",
          type: "SetActionDeadline",
          at: new Date(Date.UTC(2100, 0, 1) + round * 60_000).toISOString(),
        };
        const answers = await Promise.all(
          apps.map((app) =>
            app.inject({
              method: "POST",
              url: `/campaigns/${CAMPAIGN}/commands`,
              headers: auth(tokens["host"]!),
              payload: { expectedSeq, commands: [command] },
            }),
          ),
        );
        const pair = answers
          .map((answer) => answer.statusCode)
          .sort()
          .join(" ");
        statuses.set(pair, (statuses.get(pair) ?? 0) + 1);
        for (const answer of answers.filter((a) => a.statusCode === 200))
          if (answer.json<{ events: Array<{ seq: number }> }>().events[0]!.seq !== expectedSeq + 1) decidedLater++;
      }
      expect({ decidedLater, statuses: Object.fromEntries(statuses) }).toEqual({
        decidedLater: 0,
        statuses: { "200 409": ROUNDS },
      });
      expect((await engines[0].store.head(CAMPAIGN)).seq).toBe(start + ROUNDS);
    } finally {
      for (const app of apps) await app.close();
      for (const engine of engines) await engine.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
