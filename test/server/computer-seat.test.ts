/**
 * A computer seat on the server (docs/computer.md, docs/server.md): POST /campaigns's `computer` field, checked before
 * anything is written; no invite for the computer's seat, at creation or later.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ashfallSetup, auth, CAMPAIGN, startTestServer, type TestServer } from "./support.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ setup: { ...(await ashfallSetup()), computer: { seat: "horde" } } });
});
afterAll(() => server.close());

const inviteFor = (seat: string) =>
  server.app.inject({
    method: "POST",
    url: `/campaigns/${CAMPAIGN}/invites`,
    headers: auth(server.tokens["host"]!),
    payload: { seat },
  });
const create = async (body: object) =>
  server.app.inject({ method: "POST", url: "/campaigns", headers: auth(server.operator), payload: body });

describe("a campaign with a computer seat, on the server", () => {
  it("offers the operator alone the set-ups, the computer's levels and its thinking time's bounds for a new campaign (GET /setups)", async () => {
    const offer = await server.app.inject({ method: "GET", url: "/setups", headers: auth(server.operator) });
    expect(offer.statusCode).toBe(200);
    const body = offer.json<{
      setups: Array<{ file: string; setup: { campaign: string; catalogue: unknown } }>;
      computer: unknown;
    }>();
    expect(body.setups.map((s) => [s.file, s.setup.campaign])).toEqual([
      ["ashfall.setup.json", "ashfall"],
      ["emberfall.setup.json", "emberfall"],
    ]);
    // As POST /campaigns takes it: the catalogue in the set-up, not a file's name.
    expect(typeof body.setups[0]!.setup.catalogue).toBe("object");
    expect(body.computer).toEqual({ levels: ["scripted", "searching"], thinkMs: { default: 250, max: 60_000 } });
    const seat = await server.app.inject({ method: "GET", url: "/setups", headers: auth(server.tokens["host"]!) });
    expect(seat.statusCode).toBe(403);
    expect(seat.json()).toMatchObject({ error: "forbidden", message: "only the operator token creates campaigns" });
    expect((await server.app.inject({ method: "GET", url: "/setups" })).statusCode).toBe(401);
  });

  it("issues invites to the people's seats only", () => {
    expect(Object.keys(server.tokens).sort()).toEqual(["concord", "host"]);
  });

  it("refuses an invite for the computer's seat, naming the seats that take one", async () => {
    const answer = await inviteFor("horde");
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toMatchObject({ field: "seat" });
    expect(answer.json<{ message: string }>().message).toBe(
      `seat: horde is played by the computer in ${CAMPAIGN}: no invite is issued for it (invite one of host, concord)`,
    );
    const other = await inviteFor("concord");
    expect(other.statusCode).toBe(201);
  });

  it("refuses a computer seat that is no player, an unknown level, a thinking time out of range, or fog of war (A2), creating nothing", async () => {
    const setup = { ...(await ashfallSetup()), campaign: "solo" } as { options?: object };
    const cases: [object, number, RegExp][] = [
      [{ ...setup, computer: { seat: "host" } }, 400, /computer\.seat: .*concord\[:LEVEL\] or horde\[:LEVEL\]/],
      [{ ...setup, computer: { seat: "horde", level: "clever" } }, 400, /computer\.level/],
      [{ ...setup, computer: { seat: "horde", thinkMs: 0 } }, 400, /computer\.thinkMs/],
      [
        { ...setup, options: { ...setup.options, advanced: { fogOfWar: true } }, computer: { seat: "horde" } },
        400,
        /computer\.seat: .*without fog of war \(A2\)/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const answer = await create(body);
      expect(answer.statusCode, answer.body).toBe(status);
      expect(answer.json<{ message: string }>().message).toMatch(message);
    }
    expect(await server.engine.listCampaigns()).toEqual([CAMPAIGN]);
  });
});

describe("a campaign whose battles the model resolves, on the server", () => {
  it("takes options.battles in POST /campaigns's set-up, recorded in CampaignCreated; refuses a value that is no way of resolving them", async () => {
    const setup = (await ashfallSetup()) as { options?: object };
    const refused = await create({
      ...setup,
      campaign: "modelled-bad",
      options: { ...setup.options, battles: "dice" },
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/battles/);
    const made = await create({
      ...setup,
      campaign: "modelled",
      options: { ...setup.options, battles: "model" },
      computer: { seat: "horde" },
    });
    expect(made.statusCode, made.body).toBe(201);
    const state = await server.engine.state("modelled");
    expect(state.setup!.options.battles).toBe("model");
    expect(await server.engine.listCampaigns()).not.toContain("modelled-bad");
  });
});
