/**
 * The page when a seat is open in several tabs, and when things go wrong (docs/web.md, Several tabs, and outages):
 * `epicwar demo --serve` serves Ashfall and Debian's chromium opens the Concord in two tabs of one browser and the
 * Horde in another. Two tabs of one seat play on without freezing the campaign; a refusal stays in sight in the tab
 * that got it, and leaves no secret behind; a kill -9 of the server while a player confirms an order leaves the page
 * saying so, offline, then back, with its controls usable; a page whose chore cannot be taken still shows the campaign
 * and the problem after a reload; and the page's icon is no console error.
 * Every wait is for what a page shows or for the event on the server's feed that makes the campaign as expected.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCommitment } from "../../src/crypto/commitments.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { launchChromium, openSeat, type SeatPage } from "./browser.js";
import { campaignReads, issueInvite, seatToken } from "./campaign-reads.js";
import { epicwar, keptLine, ROOT, type CliProcess } from "./cli-process.js";

const CAMPAIGN = "ashfall";
const DUEL = "duel";
const WAIT = { timeout: 60_000 };

let dir: string;
let server: CliProcess;
let url: string;
let operatorToken: string;
let hostToken: string;
let browser: Browser;
const links: Record<string, string> = {};
const pages: SeatPage[] = [];
const { until } = campaignReads(
  () => url,
  CAMPAIGN,
  () => hostToken,
  WAIT.timeout,
);

/** Serves the demo's folder (made on the first run, served again as it is on the next) on `port` (0: any). */
function serve(port: string): CliProcess {
  return epicwar(["demo", "--serve", "--db", join(dir, "war"), "--port", port], { cwd: dir, home: dir });
}

/** A seat's page, remembered so that its console is checked at the end and its browser context closed. */
async function open(...args: Parameters<typeof openSeat>): Promise<SeatPage> {
  const seat = await openSeat(...args);
  pages.push(seat);
  return seat;
}

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Routes a page's first command through `hold`; the page's later commands go straight on. */
async function holdFirstCommand(page: Page, hold: (route: Route) => Promise<void>): Promise<void> {
  let held = false;
  await page.route(`**/campaigns/${CAMPAIGN}/commands*`, async (route) => {
    if (held) return route.continue();
    held = true;
    await hold(route);
  });
}

/** A campaign of Ashfall's set-up made by the operator, under another id: its seats' invites. */
async function newCampaign(campaign: string): Promise<Record<string, string>> {
  const setup = (await loadSetupFile(join(ROOT, "examples", "ashfall.setup.json"))) as Record<string, unknown>;
  const created = await fetch(`${url}/campaigns`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
    body: JSON.stringify({ ...setup, campaign }),
  });
  expect(created.status).toBe(201);
  return ((await created.json()) as { invites: Record<string, string> }).invites;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "epicwar-web-tabs-"));
  server = serve("0");
  url = (await server.line(/^Serving .* at /)).replace(/^.* at (http:\/\/[^ ]+) .*$/, "$1");
  operatorToken = (await keptLine(server, dir, "Operator token")).split(": ").at(-1)!;
  for (const seat of ["host", "concord", "horde"])
    links[seat] = (await keptLine(server, dir, `${CAMPAIGN} ${seat} `)).split(" ")[2]!;
  hostToken = await seatToken(url, operatorToken, CAMPAIGN);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("one seat in several tabs, and failures in plain sight (docs/web.md)", () => {
  it("D1 two tabs of one seat do not freeze the campaign: the seat's seed is kept once, given, and the turn goes on; one tab takes the chores at a time", async () => {
    await open(browser, "horde", links["horde"]!);
    // Tab A keeps its seed and sends its CommitSeed, which is held; meanwhile tab B opens on the state before it.
    const aSent = signal();
    const release = signal();
    const aAnswered = signal();
    const first = await open(browser, "concord", links["concord"]!, {
      beforeOpen: (page) =>
        holdFirstCommand(page, async (route) => {
          aSent.resolve();
          await release.promise;
          await route.fulfill({ response: await route.fetch() });
          aAnswered.resolve();
        }),
    });
    await aSent.promise;
    const bSent = signal();
    const second = open(browser, "concord", `${url}/`, {
      context: first.context,
      beforeOpen: (page) =>
        holdFirstCommand(page, async (route) => {
          bSent.resolve();
          await aAnswered.promise;
          await route.continue();
        }),
    });
    // A tab that took the chores too would send its own CommitSeed before it shows the campaign.
    await Promise.race([bSent.promise, second.then((tab) => tab.page.getByTestId("scoreboard").waitFor(WAIT))]);
    release.resolve();
    const concord = await second;
    const started = await until("both seeds given and the initiative rolled", (s) => !!s.turnState?.initiativeWinner);
    expect(Object.keys(started.turnState!.playerSeeds).sort()).toEqual(["concord", "horde"]);
    // The seed the Concord's tabs keep is the one it gave.
    expect((await concord.secretsFile(CAMPAIGN)).playerSeeds?.["1"]).toBe(started.turnState!.playerSeeds["concord"]);
    // The tab that opened first takes the chores; the other says so, and takes over when the first closes.
    await first.page.locator("[data-testid=chores][data-here=true]").waitFor(WAIT);
    await concord.page.locator("[data-testid=chores][data-here=false]").waitFor(WAIT);
    await first.page.close();
    await concord.page.locator("[data-testid=chores][data-here=true]").waitFor(WAIT);
  });

  /** A second campaign, DUEL, played by a page for each player from its start; the Concord opens a second tab. */
  let horde: SeatPage;
  let concord: SeatPage;
  const duel = campaignReads(
    () => url,
    DUEL,
    () => duelToken,
    WAIT.timeout,
  );
  let duelToken: string;

  it("T3 a refusal stays in sight in the tab that got it until dismissed, and leaves no secret behind", async () => {
    const invites = await newCampaign(DUEL);
    duelToken = await seatToken(url, operatorToken, DUEL);
    horde = await open(browser, "horde", `${url}/join#${invites["horde"]}`);
    concord = await open(browser, "concord", `${url}/join#${invites["concord"]}`);
    const state = await duel.until("the initiative rolled", (s) => !!s.turnState?.initiativeWinner);
    const winner = state.turnState!.initiativeWinner!;
    const chooser = winner === "concord" ? concord : horde;
    const concordName = state.setup!.players.find((p) => p.id === "concord")!.name;
    await chooser.page
      .getByTestId("choose-first")
      .getByRole("button", { name: winner === "concord" ? "I do" : concordName })
      .click(WAIT);
    const tabs = [concord, await open(browser, "concord", `${url}/`, { context: concord.context })];
    const armies = tabs[0]!.page.locator("[data-testid=orders] button[data-army]");
    await armies.first().waitFor(WAIT);
    const listed = await armies.evaluateAll((buttons) => buttons.map((b) => b.getAttribute("data-army")!));
    // Armies alone on their squares, which may stay where they are (S7: one stacked on its home base must move off).
    const onMap = Object.values(state.armies).filter((a) => a.status === "active" && a.at);
    const alone = (id: string) => {
      const at = state.armies[id]!.at!;
      return onMap.filter((a) => a.at![0] === at[0] && a.at![1] === at[1]).length === 1;
    };
    const ids = listed.filter(alone);
    expect(ids.length).toBeGreaterThan(1);
    // Each tab gives a different army an order; both confirm at once, and T3 lets only one through.
    for (const [i, tab] of tabs.entries()) {
      await tab.page.locator(`[data-testid=orders] button[data-army="${ids[i]}"]`).click(WAIT);
      await tab.page.locator("input[name=order][value=fortify]").check();
    }
    // Both clicked at once, with no wait for the pointer's checks in between: the first order taken makes it the
    // Horde's go, which takes the other tab's form away at its next refresh.
    await Promise.all(
      tabs.map((tab) => tab.page.getByTestId("confirm-order").evaluate((button: HTMLElement) => button.click())),
    );
    const after = await duel.until("one of the Concord's armies activated", (s) =>
      Object.values(s.turnState!.activations).some((a) => a.player === "concord"),
    );
    const activated = Object.values(after.turnState!.activations).filter((a) => a.player === "concord");
    expect(activated).toHaveLength(1);
    // Both tabs have caught up: no army of the Concord's is to be activated now; the refusal is still shown.
    for (const tab of tabs)
      await tab.page
        .getByTestId("orders")
        .filter({ hasText: "None of your armies is to be activated now" })
        .waitFor(WAIT);
    const notices = await Promise.all(tabs.map((tab) => tab.page.getByTestId("notice").count()));
    expect([...notices].sort()).toEqual([0, 1]);
    const refused = tabs[notices.indexOf(1)]!;
    const notice = refused.page.getByTestId("notice");
    await expect(notice.textContent()).resolves.toMatch(/T3 /);
    // Only the accepted order is kept: the refused one's secret is gone.
    expect(Object.keys((await refused.secretsFile(DUEL)).orders ?? {})).toEqual([`1/${activated[0]!.army}`]);
    await notice.getByRole("button", { name: "Dismiss" }).click();
    await notice.waitFor({ state: "detached", ...WAIT });
    await tabs[1]!.page.close();
  });

  it("Confirm while the server is down: the page says so in its own words, shows it offline, then back, and Confirm works without a reload", async () => {
    const army = horde.page.locator("[data-testid=orders] button[data-army]").first();
    await army.waitFor(WAIT);
    const id = (await army.getAttribute("data-army"))!;
    await army.click();
    await horde.page.locator("input[name=order][value=fortify]").check();
    const port = new URL(url).port;
    server.child.kill("SIGKILL");
    await server.exited;
    const confirm = horde.page.getByTestId("confirm-order");
    try {
      await confirm.click();
      const notice = horde.page.getByTestId("notice");
      await expect(notice.textContent(WAIT)).resolves.toMatch(/The server did not answer/);
      await expect(notice.textContent()).resolves.not.toMatch(/--server/);
      for (const tab of [horde, concord])
        await expect(
          tab.page.locator("[data-testid=connection][data-state=offline]").textContent(WAIT),
        ).resolves.toMatch(/^Offline since \d\d:\d\d:\d\d/);
    } finally {
      server = serve(port);
      await server.line(/^Serving .* at /);
    }
    for (const tab of [horde, concord])
      await expect(tab.page.locator("[data-testid=connection][data-state=back]").textContent(WAIT)).resolves.toMatch(
        /^Back at \d\d:\d\d:\d\d/,
      );
    // Nothing was written; the same order is confirmed again, from the same controls.
    expect((await duel.stateNow()).turnState!.activations[id]).toBeUndefined();
    await expect(confirm.isEnabled()).resolves.toBe(true);
    await confirm.click();
    await duel.until(`${id} activated`, (s) => s.turnState!.activations[id] !== undefined);
    await horde.page.locator(`[data-testid=orders] button[data-army="${id}"]`).waitFor({ state: "detached", ...WAIT });
    // The Concord's tab caught up through its feed: its list of events holds the activation, in names.
    const names = await duel.stateNow();
    const hordeName = names.setup!.players.find((p) => p.id === "horde")!.name;
    await concord.page
      .getByTestId("recent")
      .filter({ hasText: `${hordeName} activates ${names.armies[id]!.name}` })
      .waitFor(WAIT);
  });

  it("D1 a page whose chore cannot be taken shows the campaign and the problem, after a reload too, with every tool in reach", async () => {
    const campaign = "lostseed";
    await newCampaign(campaign);
    // Both players commit to seeds from elsewhere: the Concord's browser will not hold the seed its GiveSeed needs.
    for (const player of ["concord", "horde"]) {
      const token = await seatToken(url, operatorToken, campaign, player);
      const reads = campaignReads(
        () => url,
        campaign,
        () => token,
        WAIT.timeout,
      );
      const seedHash = seedCommitment(`${player}-seed-`.padEnd(64, "0"));
      const answer = await fetch(`${url}/campaigns/${campaign}/commands`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          expectedSeq: (await reads.read<{ seq: number }>(`/campaigns/${campaign}/state`)).seq,
          commands: [{ actor: player, type: "CommitSeed", seedHash }],
        }),
      });
      expect(answer.status).toBe(200);
    }
    const invite = await issueInvite(url, operatorToken, campaign, "concord");
    const lost = await open(browser, "concord", `${url}/join#${invite}`);
    for (const reload of [false, true]) {
      if (reload) await lost.page.reload();
      await lost.page.getByTestId("scoreboard").waitFor(WAIT);
      await expect(lost.page.getByTestId("problem").textContent(WAIT)).resolves.toMatch(
        /holds no dice seed for turn 1.*\(D1\)/,
      );
      await lost.page.getByTestId("history-tab").waitFor(WAIT);
      await lost.page.getByTestId("export-secrets").waitFor(WAIT);
    }
    await lost.page.getByTestId("history-tab").click();
    await lost.page.getByTestId("problem").waitFor(WAIT);
  });

  it("the page's icon is no console error, and no page script threw", () => {
    const errors = pages.flatMap((seat) => seat.consoleErrors);
    expect(
      errors.filter((error) => /favicon/.test(error)),
      errors.join("\n"),
    ).toEqual([]);
    expect(pages.flatMap((seat) => seat.errors)).toEqual([]);
  });
});
