/**
 * S8 D1 T5 A2 over the wire: the leak-proof property over random campaigns served by a real server (./leak-proof.ts),
 * and the self-check that shows its search finds a secret wherever one is planted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOST } from "../../events/common.js";
import type { CurrentEvent } from "../../events/index.js";
import { RandomPlayer, type Gen } from "../support/campaign-player.js";
import { commanderFates } from "../support/secret-search.js";
import {
  checkRandomCampaigns,
  fogLeaksInEvents,
  fogLeaksInTimeline,
  foggedSetup,
  nextStep,
  play,
  readEverything,
  secretsHiddenFrom,
  startServed,
  truthOf,
  type EventLike,
} from "./leak-proof.js";

describe("S8 D1 T5 A2 no answer of the server ever holds a secret its seat may not have (random campaigns)", () => {
  it("S8 D1 T5 A2 every read, the feed and every command's answer, as each player and the organiser, hold no other side's hidden order, salt, seed, fogged strength or living commander", async () => {
    // Tuned to a few seconds; test/slow/server-leak-soak.test.ts plays longer campaigns, more of them.
    await checkRandomCampaigns({ numRuns: 3, maxTurns: 2, stops: 3 });
  }, 120_000);
});

/** The leaks reported for the reads whose names start with `where`, each without its read's name. */
const reportedIn = (leaks: readonly string[], where: string) =>
  leaks.filter((leak) => leak.startsWith(where)).map((leak) => leak.slice(leak.indexOf(": ") + 2));

/** An answer's JSON changed as `change` changes it. */
const rewriteJson =
  <T>(change: (json: T) => void) =>
  (body: string) => {
    const json = JSON.parse(body) as T;
    change(json);
    return JSON.stringify(json);
  };

/** A value planted at the end of a JSON object's members. */
const withMember = (body: string, value: unknown) => body.replace(/}$/, `,"planted":${JSON.stringify(value)}}`);

describe("the leak search finds what it looks for", () => {
  it("reports a hidden salt, the host's seed and a living commander planted in any read, and the other side's points planted in a state, log, timeline, audit or diff", async () => {
    /** Rewrites the answers of some reads: set by each check, applied by the app's last onSend hook. */
    let plant: ((url: string, body: string) => string) | undefined;
    const served = await startServed(await foggedSetup("ashfall"), 7, (app) =>
      app.addHook("onSend", async (request, _reply, payload) =>
        plant && typeof payload === "string" ? plant(request.url, payload) : payload,
      ),
    );
    const { campaign } = served;
    /** What concord's reads show with this plant, as the property's search reports it. */
    const found = async (g: Gen, route: string, rewrite: (body: string) => string, seat = "concord") => {
      plant = (url, body) => (url.startsWith(`/campaigns/${campaign}/${route}`) ? rewrite(body) : body);
      try {
        return await readEverything(served, seat, g, undefined);
      } finally {
        plant = undefined;
      }
    };
    try {
      await fc.assert(
        fc.asyncProperty(fc.gen(), async (g) => {
          // Play until horde holds an order not yet revealed, in a turn whose host seed is still secret.
          const player = new RandomPlayer(g);
          let truth = await truthOf(served, campaign);
          const hidden = () => secretsHiddenFrom(truth, "concord");
          while (!hidden().some((s) => s.kind === "salt")) {
            await play(served, nextStep(served, await served.server.engine.state(campaign), player));
            truth = await truthOf(served, campaign);
          }
          expect(await readEverything(served, "concord", g, undefined), "nothing planted, nothing found").toEqual([]);

          const salt = hidden().find((s) => s.kind === "salt")!;
          const hostSeed = hidden().find((s) => s.kind === "host seed")!;
          const [army, fate] = [...commanderFates(truth.events)].find(([, f]) => f.player === "horde" && !f.killed)!;
          for (const route of ["state", "log", "timeline", "audit", "branches", "diff", "waiting", "forecast"]) {
            const leaks = await found(g, route, (body) => withMember(body, [salt.text, hostSeed.text, fate.commander]));
            expect(reportedIn(leaks, `concord ${route}`), `planted in ${route}`).toEqual(
              expect.arrayContaining([salt.what, hostSeed.what, `horde's living commander of ${army}`]),
            );
          }
          const forHost = await found(g, "log", (body) => withMember(body, salt.text), HOST);
          expect(reportedIn(forHost, "host log")).toContain(salt.what);

          // A2: the points of a horde army, and an event of horde's that fog of war hides, shown.
          const planted = 1234;
          const hordeArmy = Object.values((await served.server.engine.state(campaign)).armies).find(
            (a) => a.player === "horde",
          )!.id;
          type Armies = { armies: Record<string, { points: unknown }> };
          const showPoints = rewriteJson<{ state: Armies }>((json) => (json.state.armies[hordeArmy]!.points = planted));
          expect(reportedIn(await found(g, "state", showPoints), "concord state")).toContain(
            `points at armies.${hordeArmy}.points`,
          );
          const showInDiff = rewriteJson<{ b: Armies }>((json) => (json.b.armies[hordeArmy]!.points = planted));
          expect(reportedIn(await found(g, "diff", showInDiff), "concord diff")).toContain(
            `main: the points of ${hordeArmy}`,
          );
          const showInAudit = (body: string) => withMember(body, { points: planted });
          expect(reportedIn(await found(g, "audit", showInAudit), "concord audit")).toContain(
            "points at planted.points",
          );
          const fogged = truth.events.find((e) => fogLeaksInEvents([e as unknown as EventLike], "concord").length > 0)!;
          const unfog = rewriteJson<{ events: EventLike[] }>(
            (json) => (json.events.find((e) => e.seq === fogged.seq)!.data = fogged.data as EventLike["data"]),
          );
          expect(reportedIn(await found(g, "log", unfog), "concord log")).toEqual(
            expect.arrayContaining([expect.stringMatching(`^${fogged.type} #${fogged.seq} `)]),
          );
          // Points in words: a trade of horde's (the random player trades seldom), its points written in its entry.
          const trade = {
            seq: truth.events.length + 1,
            type: "FormationsTraded",
            data: { player: "horde", points: 1250 },
          };
          const withTrade = { ...truth, events: [...truth.events, trade as unknown as CurrentEvent] };
          const entry = { seq: trade.seq, text: "horde trades in h1's armour (1,250 points) for nothing" };
          expect(fogLeaksInTimeline([entry], withTrade, "concord")).toEqual([
            `FormationsTraded #${trade.seq} in words shows 1250 points`,
          ]);
          expect(
            fogLeaksInTimeline([{ ...entry, text: "horde trades in formations (? points)" }], withTrade, "concord"),
          ).toEqual([]);
        }),
        { numRuns: 1, seed: 1, endOnFailure: true },
      );
    } finally {
      await served.server.close();
    }
  });
});
