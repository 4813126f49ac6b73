/**
 * D2, the attack of docs/fair-dice.md's threat model: the organiser makes itself a new invite for a player's seat and
 * tries to act as that player. Every party plays through its own client (a Table over the server, its key made on its
 * own machine); the organiser's second seat for the player is a client like any other, with keys of its own.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sequenceRandomHex } from "../../src/client/prepare.js";
import { RemoteCampaign, type RemoteOutcome } from "../../src/client/remote.js";
import { MemorySecrets } from "../../src/client/secrets.js";
import { ServerConnection } from "../../src/client/server.js";
import { Table, takeChoresInTurn } from "../../src/client/table.js";
import type { CommandHandler } from "../../src/engine/engine.js";
import type { CampaignView } from "../../src/views/view.js";
import { renderState } from "../../src/cli/render.js";
import type { AuditReport } from "../../replays/audit.js";
import { renderAudit } from "../../replays/audit-text.js";
import { auth, CAMPAIGN, startTestServer, type TestServer } from "../server/support.js";

let server: TestServer;
let url: string;

/** A player's machine: a Table over the server with its own secrets (and so its own key). */
const client = (token: string, player: string) =>
  new Table<CampaignView, RemoteOutcome>(new RemoteCampaign(new ServerConnection(url, token)), CAMPAIGN, {
    parties: new Set([player]),
    secrets: new MemorySecrets(),
    random: sequenceRandomHex(`impersonation-${player}-${token.slice(-6)}`),
  });

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: "127.0.0.1", port: 0 });
  url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await server.close();
});

describe("the organiser's invite for a player's seat (D2)", () => {
  it("cannot act as the player; it acts only after a replacement of the player's key that every seat is warned of", async () => {
    const players = ["concord", "horde"];
    const real = Object.fromEntries(players.map((p) => [p, client(server.tokens[p]!, p)]));
    // Both players play up to the initiative winner's choice, each registering its key first.
    for (let round = 0; round < 10; round++) for (const p of players) await real[p]!.takeChores();
    const before = await server.engine.state(CAMPAIGN);
    expect(Object.keys(before.seatKeys ?? {}).sort()).toEqual(["concord", "horde", "host"]);
    const winner = before.turnState!.initiativeWinner!;
    const choose = { actor: winner, type: "ChooseFirst", first: winner };

    // The organiser makes itself a second token for the winner's seat.
    const invited = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/invites`,
      headers: auth(server.tokens["host"]!),
      payload: { seat: winner },
    });
    expect(invited.statusCode).toBe(201);
    const session = await server.app.inject({
      method: "POST",
      url: "/session",
      payload: { invite: invited.json<{ invite: string }>().invite },
    });
    const impostorToken = session.json<{ token: string }>().token;

    // Unsigned, as the attacker sent it: refused by D2, the log as it was.
    const unsigned = await server.app.inject({
      method: "POST",
      url: `/campaigns/${CAMPAIGN}/commands`,
      headers: auth(impostorToken),
      payload: { expectedSeq: before.seq, commands: [choose] },
    });
    expect(unsigned.statusCode).toBe(422);
    expect(unsigned.json()).toMatchObject({ error: "refused", rule: "D2", field: "signature" });
    // Through a client of its own: its machine holds no key in force for the seat, and says so.
    const impostor = client(impostorToken, winner);
    const refused = await impostor.submit(choose);
    expect(refused).toMatchObject({ ok: false, refusal: { rule: "D2" } });
    expect(!refused.ok && refused.refusal.message).toMatch(/is not the one this machine holds/);
    expect((await server.engine.state(CAMPAIGN)).seq).toBe(before.seq);

    // It can act only by putting a key of its own in force, which names the one it replaces.
    const rekeyed = await impostor.submit({ actor: winner, type: "RegisterSeatKey" });
    expect(rekeyed.ok).toBe(true);
    const registered = rekeyed.ok ? rekeyed.events[0]! : undefined;
    expect(registered).toMatchObject({
      type: "SeatKeyRegistered",
      data: { party: winner, replaces: before.seatKeys![winner]!.publicKey },
    });
    expect((await impostor.submit(choose)).ok).toBe(true);

    // Every seat is warned: each one's state holds the replacement, each one's audit warns of it.
    for (const seat of ["host", ...players]) {
      const state = await server.app.inject({
        url: `/campaigns/${CAMPAIGN}/state`,
        headers: auth(server.tokens[seat]!),
      });
      expect(state.json<{ state: CampaignView }>().state.seatKeys![winner]!.replacements).toEqual([
        { seq: registered!.seq, turn: 1 },
      ]);
      const audit = await server.app.inject({
        url: `/campaigns/${CAMPAIGN}/audit`,
        headers: auth(server.tokens[seat]!),
      });
      const report = audit.json<AuditReport>();
      expect(report.signatures.replacements).toEqual([{ party: winner, seq: registered!.seq, at: registered!.at }]);
      // In words, on the CLI's `state` and `audit` as on the page.
      const warning = `WARNING: ${winner}'s key was replaced at seq ${registered!.seq}`;
      expect(renderState(state.json<{ state: CampaignView }>().state)).toContain(`${warning} (turn 1)`);
      expect(renderAudit(report).join("\n")).toContain(`${warning} (${registered!.at})`);
    }
    // And the real player's machine, finding a key in force that is not its own, warns its player.
    const real2 = await real[winner]!.submit({ actor: winner, type: "ClaimStall" });
    expect(real2).toMatchObject({ ok: false, refusal: { rule: "D2" } });
    expect(!real2.ok && real2.refusal.message).toMatch(
      new RegExp(
        `${winner}'s key in force \\(registered at seq ${registered!.seq}\\) is not the one this machine holds`,
      ),
    );
  });

  it("a command signed at a seq the line has since passed is signed again at the new seq, not refused", async () => {
    const other = await startTestServer();
    try {
      await other.app.listen({ host: "127.0.0.1", port: 0 });
      const at = `http://127.0.0.1:${(other.app.server.address() as AddressInfo).port}`;
      /** A player's machine whose next read of the campaign is followed by `race`, before its command goes out. */
      const racing = (player: string) => {
        const remote = new RemoteCampaign(new ServerConnection(at, other.tokens[player]!));
        const handler: CommandHandler<CampaignView, RemoteOutcome> & { race?: () => Promise<unknown> } = {
          state: async (campaign) => {
            const read = await remote.state(campaign);
            const race = handler.race;
            delete handler.race;
            await race?.();
            return read;
          },
          execute: (campaign, inputs) => remote.execute(campaign, inputs),
        };
        const table = new Table(handler, CAMPAIGN, { parties: new Set([player]), secrets: new MemorySecrets() });
        return { handler, table };
      };
      const seats = { concord: racing("concord"), horde: racing("horde") };
      await takeChoresInTurn([seats.concord.table, seats.horde.table]);
      const read = await other.engine.state(CAMPAIGN);
      const winner = read.turnState!.initiativeWinner! as keyof typeof seats;
      // The organiser sets a deadline between the winner's read and its command: the line moves on, the turn does not.
      seats[winner].handler.race = () =>
        other.app.inject({
          method: "POST",
          url: `/campaigns/${CAMPAIGN}/commands`,
          headers: auth(other.tokens["host"]!),
          payload: {
            expectedSeq: read.seq,
            commands: [{ actor: "host", type: "SetActionDeadline", at: "2099-01-01T00:00:00Z" }],
          },
        });
      const chosen = await seats[winner].table.submit({ actor: winner, type: "ChooseFirst", first: winner });
      expect(chosen.ok, JSON.stringify(chosen)).toBe(true);
      const events = await other.engine.store.readAll(CAMPAIGN);
      const first = events.find((e) => e.type === "FirstPlayerChosen")!;
      expect(events.find((e) => e.type === "ActionDeadlineSet")!.seq).toBe(read.seq + 1);
      // Signed at the seq it was written after, not at the one the winner first read.
      expect(JSON.parse(first.command!.signed)).toMatchObject({ seq: first.seq - 1 });
      expect(first.seq - 1).toBeGreaterThan(read.seq);
    } finally {
      await other.close();
    }
  });
});
