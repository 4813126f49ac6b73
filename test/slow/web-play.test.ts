/**
 * The web page in a real browser (docs/web.md): `epicwar demo --serve` serves Ashfall, Debian's chromium opens the
 * three seats' invite links in contexts of their own, and the two players and the organiser play through the page as
 * people would, by clicking: initiative, activations with paths on the map (the squares highlighted from the engine's
 * own move search), the reveals the pages send by themselves, a battle's result (first one the engine refuses, with
 * its rule ID shown), the End phase. Then the server's audit is clean, the timeline steps back and forth, a branch is
 * made and its diff shown. Along the way nothing of the enemy's hidden orders, nor under fog of war its strengths, is
 * in any byte a player's page received or holds before the reveal. Every wait is for what a page shows.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Locator, Page, Request, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Square } from "../../events/common.js";
import type { StoredEvent } from "../../events/index.js";
import { verifySignature } from "../../src/crypto/verify-node.js";
import type { ArmyState, BattleState } from "../../projections/state.js";
import type { AuditReport } from "../../replays/audit-report.js";
import { pendingDefenders } from "../../src/rules/action-common.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import type { CampaignView } from "../../src/views/view.js";
import { activatableArmies, defenceSquares, newArmySquares, reachable } from "../../src/web/rules-view.js";
import { parseSecretsFile } from "../../src/web/secrets-file.js";
import { timeMapRender } from "../../bench/map.js";
import { browserBundle } from "../support/browser-bundle.js";
import {
  accessibilityViolations,
  launchChromium,
  openSeat,
  PHONE,
  sidewaysOverflow,
  type SeatPage,
} from "./browser.js";
import { campaignReads, seatToken } from "./campaign-reads.js";
import {
  activate,
  activated,
  arrowTo,
  chooseOnMap,
  clickSquare,
  keyboard,
  pointer,
  tabTo,
  targetOf,
  type Hands,
} from "./page-actions.js";
import { scoutingSetup } from "./scouting-setup.js";
import { epicwar, keptLine, ROOT, type CliProcess } from "./cli-process.js";

const CAMPAIGN = "ashfall";
const PLAYERS = ["concord", "horde"] as const;
const WAIT = { timeout: 60_000 };
const FORECAST_WAIT = 180_000;
/** Where the screenshots for docs/ go when SCREENSHOTS=docs (npm run test:slow leaves docs/ as it is otherwise). */
const SHOTS = process.env["SCREENSHOTS"] === "docs" ? join(ROOT, "docs") : undefined;

let server: CliProcess;
let url: string;
let browser: Browser;
let hostToken: string;
let operatorToken: string;
const seats: Record<string, SeatPage> = {};

const organiserReads = (campaign: string, token: () => string) =>
  campaignReads(() => url, campaign, token, WAIT.timeout);
const { read, stateNow, until } = organiserReads(CAMPAIGN, () => hostToken);

/** The test's own organiser token for a campaign, issued by the operator: the answers the pages are checked against. */
const organiserToken = (campaign: string) => seatToken(url, operatorToken, campaign);

/**
 * A second campaign on the server, made from a set-up file by the operator: the pages of its organiser and its two
 * players, signed in from their invite links, and the reads of the test's own organiser token.
 */
async function secondCampaign(setup: Record<string, unknown>) {
  const campaign = String(setup["campaign"]);
  const created = await fetch(`${url}/campaigns`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
    body: JSON.stringify(setup),
  });
  expect(created.status).toBe(201);
  const { invites } = (await created.json()) as { invites: Record<string, string> };
  const pages: Record<string, SeatPage> = {};
  for (const seat of ["host", ...PLAYERS])
    pages[seat] = await openSeat(browser, `${campaign} ${seat}`, `${url}/join#${invites[seat]}`);
  const token = await organiserToken(campaign);
  return { pages, ...organiserReads(campaign, () => token) };
}

/** The Concord works its page by keyboard alone, the others with a pointer (the Horde a finger on a phone). */
const handsOf = (seat: SeatPage): Hands =>
  seat.seat.split(" ").at(-1) === "concord" ? keyboard(seat, WAIT) : pointer(WAIT);

/** A side's name, as the pages say it. */
const sideName = (state: CampaignView, player: string) => state.setup!.players.find((p) => p.id === player)!.name;

/**
 * One activation given entirely by keyboard: the army chosen on the map (Enter again on a stack for its next army),
 * the order chosen among the radios with the arrows, the square moved to chosen on the map, the order confirmed.
 */
async function activateByKeyboard(seat: SeatPage, state: CampaignView, army: ArmyState, shot?: string): Promise<void> {
  const { page } = seat;
  await page.locator(`button[data-army="${army.id}"]`).waitFor(WAIT);
  await tabTo(seat, "[data-testid=map] [role=grid]");
  await arrowTo(seat, army.at!);
  for (let presses = 0; presses < 6; presses++) {
    if ((await page.locator(`button[data-army="${army.id}"].selected`).count()) > 0) break;
    await page.keyboard.press("Enter");
  }
  await page.locator(`button[data-army="${army.id}"].selected`).waitFor(WAIT);
  const pinned = pendingDefenders(state as never).some((battle) => battle.defender.army === army.id);
  const order = pinned ? "fortify" : "charge";
  await tabTo(seat, "input[name=order]");
  for (
    let presses = 0;
    presses < 6 && !(await page.locator(`input[name=order][value=${order}]`).isChecked());
    presses++
  )
    await page.keyboard.press("ArrowRight");
  if (!pinned) {
    const target = targetOf(state, army);
    if (target !== undefined) {
      await arrowTo(seat, target.split(",").map(Number) as Square);
      await page.keyboard.press("Enter");
      const steps = reachable(state, army, "charge").paths.get(target)!.length;
      await page.locator(`[data-path-step="${steps - 1}"]`).waitFor({ state: "attached" });
    }
  }
  await expectSound(seat);
  if (shot) await page.screenshot({ path: shot });
  await tabTo(seat, "[data-testid=confirm-order]");
  await page.keyboard.press("Enter");
  await activated(seat, army, WAIT);
}

/**
 * A scouting campaign's first turn to its first scouting: the initiative's winner lets the Concord activate first,
 * and the Concord's Border Watch (c6) scouts the Ashfoot Throng (h5) with `hands`, `beforeScout` checked just before.
 * The scouting's id and the state it was declared in.
 */
async function scoutingDeclared(
  pages: Record<string, SeatPage>,
  until: (what: string, done: (state: CampaignView) => boolean) => Promise<CampaignView>,
  hands: Hands = pointer(WAIT),
  beforeScout: () => Promise<void> = async () => {},
): Promise<{ id: string; state: CampaignView }> {
  const rolled = await until("initiative rolled", (s) => s.turnState?.initiativeWinner != null);
  const winner = rolled.turnState!.initiativeWinner!;
  await pages[winner]!.page.getByTestId("choose-first")
    .getByRole("button", { name: winner === "concord" ? "I do" : "The Concord of Seven Suns" })
    .click(WAIT);
  await until("the Concord first", (s) => s.turnState?.first === "concord");
  const scout = pages["concord"]!.page.locator("form[data-action=ScoutArmy]");
  await hands.select(scout.locator("select[name=army]"), "c6");
  await hands.select(scout.locator("select[name=target]"), "h5");
  await beforeScout();
  await hands.click(scout.getByRole("button"));
  const state = await until(
    "the scouting declared",
    (s) => Object.keys(s.turnState?.scouting?.scoutings ?? {}).length > 0,
  );
  return { id: Object.keys(state.turnState!.scouting!.scoutings)[0]!, state };
}

/**
 * Holds a page's reads of a campaign's state once its next command has been sent: `release` lets those held so far
 * go and holds the next ones; `stop` lets every read go from then on.
 */
function heldStateReads(page: Page, campaign: string) {
  let holding = false;
  let stopped = false;
  let held: Route[] = [];
  const path = `/campaigns/${campaign}`;
  void page.route(
    (address) => address.pathname === `${path}/commands`,
    async (route) => {
      await route.continue();
      holding = !stopped;
    },
  );
  void page.route(
    (address) => address.pathname === `${path}/state`,
    (route) => (holding ? void held.push(route) : route.continue()),
  );
  const letGo = async () => {
    const going = held;
    held = [];
    await Promise.all(going.map((route) => route.continue()));
  };
  return {
    release: async () => {
      await expect.poll(() => held.length, WAIT).toBeGreaterThan(0);
      await letGo();
      await expect.poll(() => held.length, WAIT).toBeGreaterThan(0);
    },
    stop: async () => {
      stopped = true;
      holding = false;
      await letGo();
    },
  };
}

/** Waits until a page has had no request of a campaign's in flight (its feed aside) for half a second. */
async function settled(page: Page, campaign: string): Promise<void> {
  const inFlight = new Set<Request>();
  const ours = (request: Request) =>
    new URL(request.url()).pathname.startsWith(`/campaigns/${campaign}/`) && !request.url().includes("/feed");
  const started = (request: Request) => void (ours(request) && inFlight.add(request));
  const done = (request: Request) => void inFlight.delete(request);
  page.on("request", started);
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  let quietSince = Date.now();
  await expect
    .poll(() => {
      if (inFlight.size > 0) quietSince = Date.now();
      return Date.now() - quietSince;
    }, WAIT)
    .toBeGreaterThan(500);
  page.off("request", started);
  page.off("requestfinished", done);
  page.off("requestfailed", done);
}

/**
 * Asks a page's forecast panel for the odds and waits for their chart; a refusal shown instead fails with its words.
 * The wait is longer than a page's other waits: the server first starts the worker threads that play the runs.
 */
async function forecastChart(panel: Locator): Promise<Locator> {
  await panel.getByRole("button", { name: "Forecast the odds" }).click();
  const chart = panel.locator("[data-testid=forecast-answer][data-final=true] svg");
  const refusal = panel.locator(".refusal");
  await Promise.race([
    chart.waitFor({ timeout: FORECAST_WAIT }),
    refusal.waitFor({ timeout: FORECAST_WAIT }).then(async () => {
      throw new Error(`the forecast was refused: ${await refusal.textContent()}`);
    }),
  ]);
  return chart;
}

/** Every salt a player's page keeps in its IndexedDB for its orders, by turn/army. */
async function heldSalts(seat: SeatPage): Promise<Record<string, string>> {
  const kept = await seat.secretsFile(CAMPAIGN);
  return Object.fromEntries(Object.entries(kept.orders ?? {}).map(([key, held]) => [key, held.salt]));
}

/** Everything a seat's page received and holds, as one text to search. */
const everything = async (seat: SeatPage) => `${seat.received.join("\n")}\n${await seat.holdings()}`;

let dir: string;

/** axe-core finds no violation on the page as it is, and the page is not wider than its window. */
async function expectSound(seat: SeatPage): Promise<void> {
  await expect(accessibilityViolations(seat.page), `${seat.seat}: axe-core`).resolves.toEqual([]);
  await expect(sidewaysOverflow(seat.page), `${seat.seat}: the page scrolls sideways`).resolves.toEqual([]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "epicwar-web-"));
  server = epicwar(["demo", "--serve", "--db", join(dir, "war"), "--port", "0"], { cwd: dir, home: dir });
  url = (await server.line(/^Serving .* at /)).replace(/^.* at (http:\/\/[^ ]+) .*$/, "$1");
  operatorToken = (await keptLine(server, dir, "Operator token")).split(": ").at(-1)!;
  const links: Record<string, string> = {};
  for (const seat of ["host", ...PLAYERS])
    links[seat] = (await keptLine(server, dir, `${CAMPAIGN} ${seat} `)).split(" ")[2]!;
  hostToken = await organiserToken(CAMPAIGN);
  browser = await launchChromium();
  // The Horde plays on a phone; the Concord and the organiser on laptops.
  for (const seat of ["host", ...PLAYERS])
    seats[seat] = await openSeat(browser, seat, links[seat]!, seat === "horde" ? { viewport: PHONE } : {});
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("the campaign in the browser (docs/web.md)", () => {
  it("signs each browser in from its invite link, and leaves no invite in the address or the history", async () => {
    for (const seat of Object.values(seats)) {
      await seat.page.getByTestId("scoreboard").waitFor(WAIT);
      expect(seat.page.url()).toBe(`${url}/`);
      await expect(seat.page.locator("h1 small").textContent()).resolves.toBe(`as ${seat.seat}`);
      // The entry before the page is the blank one it opened from: the invite link was replaced, not kept.
      await seat.page.goBack();
      expect(seat.page.url()).toBe("about:blank");
      // Coming back signs in again from the session cookie alone.
      await seat.page.goForward();
      expect(seat.page.url()).toBe(`${url}/`);
      await seat.page.getByTestId("scoreboard").waitFor(WAIT);
    }
  });

  it("O1 O2 the organiser pauses and resumes the campaign and sets the Action phase's deadline on its page; its notice says who has not acted", async () => {
    const start = await until("initiative rolled", (s) => s.turnState?.initiativeWinner != null);
    const host = seats["host"]!.page;
    const notice = host.getByTestId("waiting-notice");
    await notice
      .filter({ hasText: `${sideName(start, start.turnState!.initiativeWinner!)}: to choose who activates first` })
      .waitFor(WAIT);
    await notice.filter({ hasText: "Not acted yet:" }).waitFor(WAIT);
    const pause = host.locator("form[data-action=PauseCampaign]");
    await pause.locator("input[name=reason]").fill("a break for tea");
    await pause.getByRole("button").click();
    const paused = await until("the pause", (s) => s.paused?.reason === "a break for tea");
    // D2: signed in the organiser's browser by the organiser's own key, registered with the pause: not the server's.
    const keys = paused.seatKeys!;
    expect(keys["organiser"]!.publicKey).not.toBe(keys["host"]!.publicKey);
    const { events } = await read<{ events: StoredEvent[] }>(`/campaigns/${CAMPAIGN}/log`);
    const pauseEvent = events.find((e) => e.seq === paused.paused!.seq)!;
    expect(pauseEvent.type).toBe("CampaignPaused");
    const { signed, signature } = pauseEvent.command!;
    expect(verifySignature(keys["organiser"]!.publicKey, signed, signature)).toBe(true);
    expect(events.find((e) => e.seq === keys["organiser"]!.seq)).toMatchObject({
      type: "SeatKeyRegistered",
      actor: "host",
      data: { party: "organiser", replaces: null },
    });
    await notice.filter({ hasText: "host: to resume the campaign (ResumeCampaign)" }).waitFor(WAIT);
    // O1: a player's command while paused is refused, and the page says so with the rule's ID.
    const winner = seats[start.turnState!.initiativeWinner!]!.page;
    await winner.getByTestId("waiting").filter({ hasText: "the host to resume the campaign" }).waitFor(WAIT);
    // Said up front, before anything is filled in.
    await winner.getByTestId("paused").filter({ hasText: "(a break for tea)" }).waitFor(WAIT);
    await handsOf(seats[start.turnState!.initiativeWinner!]!).click(
      winner.getByTestId("choose-first").getByRole("button", { name: "I do" }),
    );
    await expect(
      winner.locator("[data-testid=choose-first] .refusal[data-rule=O1]").textContent(WAIT),
    ).resolves.toContain("a break for tea");
    // Listed among the refusals too, until the player dismisses it.
    const refused = winner.getByTestId("notice").filter({ hasText: "Your ChooseFirst was not taken: O1" });
    await handsOf(seats[start.turnState!.initiativeWinner!]!).click(refused.getByRole("button", { name: "Dismiss" }));
    await refused.waitFor({ state: "detached", ...WAIT });
    await host.getByTestId("resume").click();
    await until("the resume", (s) => s.paused === undefined);
    await winner.getByTestId("waiting").filter({ hasText: "to choose who activates first" }).waitFor(WAIT);
    // O2: a deadline already past is refused by its field; one to come is set, and the notice shows it.
    const deadline = host.locator("form[data-action=SetActionDeadline]");
    await deadline.locator("input[name=at]").fill("2000-01-01T00:00");
    await deadline.getByRole("button").click();
    await expect(deadline.locator(".refusal").textContent(WAIT)).resolves.toMatch(/^at the deadline .* has passed/);
    await deadline.locator("input[name=at]").fill("2099-06-15T12:00");
    await deadline.getByRole("button").click();
    const set = await until("the deadline", (s) => s.turnState?.actionDeadline !== undefined);
    expect(set.turnState!.actionDeadline).toMatch(/^2099-06-15T/);
    // In the organiser's local time, not the UTC string the campaign keeps.
    const local = await host.evaluate(
      (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }),
      set.turnState!.actionDeadline!,
    );
    await notice.filter({ hasText: `The Action phase's deadline is ${local}` }).waitFor(WAIT);
    await expectSound(seats["host"]!);
    for (const seat of Object.values(seats)) expect(seat.errors, seat.seat).toEqual([]);
  });

  it("T2 T3 T5 M1-M4 B4 E5 E6 two players and the organiser play Ashfall through the page to a battle and its End phase; the audit is clean; the enemy's hidden orders reach no byte of a page before their reveal", async () => {
    let battleFought = false;
    let refusalSeen = false;
    let secretsChecked = 0;
    const shotsTaken = new Set<string>();
    for (let turns = 0; turns < 6 && !battleFought; turns++) {
      const start = await until(
        "a turn's Action phase with initiative rolled",
        (s) => s.turnState?.initiativeWinner != null && s.phase === "action",
      );
      const turn = start.turn;
      // T2: the winner of the initiative chooses on its page.
      const winner = seats[start.turnState!.initiativeWinner!]!;
      await handsOf(winner).click(winner.page.getByTestId("choose-first").getByRole("button", { name: "I do" }));
      let state = await until("the first player chosen", (s) => s.turnState?.first !== null);
      // Before anyone has moved, the scoreboard says who activates first, not who did.
      const first = sideName(state, state.turnState!.first!);
      await seats["host"]!.page.getByTestId("scoreboard")
        .filter({ hasText: `${first} activates first` })
        .waitFor(WAIT);
      // T3: the players alternate; the test clicks for whoever's go it is, as the engine's own rules say.
      while (state.phase === "action" && state.turn === turn) {
        const player = PLAYERS.find((p) => activatableArmies(state, p).length > 0);
        if (player) {
          const army = activatableArmies(state, player)[0]!;
          const seq = state.seq;
          // The Concord plays by keyboard alone (on a laptop), the Horde with a finger on a phone.
          // docs/web.md's pictures of the Action phase, on a laptop and on a phone, from each side's first activation.
          const shot =
            SHOTS && !shotsTaken.has(player)
              ? join(SHOTS, player === "concord" ? "web-action-phase.png" : "web-action-phase-phone.png")
              : undefined;
          // On the phone the map is zoomed in (to 300%) for the first activation, the names on its counters readable;
          // it pans within its own box, the page no wider than the window.
          if (player === "horde" && !shotsTaken.has(player))
            for (let i = 0; i < 3; i++) await seats[player]!.page.getByRole("button", { name: "Zoom in" }).click(WAIT);
          shotsTaken.add(player);
          // The page's title says what waits on the player.
          await seats[player]!.page.waitForFunction(() => document.title.startsWith("(Your move) "), undefined, WAIT);
          await expect(seats[player]!.page.title()).resolves.toContain("activate an army");
          if (player === "concord") await activateByKeyboard(seats[player]!, state, army, shot);
          else await activate(seats[player]!, state, army, WAIT, shot);
          await expectSound(seats[player]!);
          state = await until("the activation written", (s) => s.seq > seq);
          // T5: each hidden order of one side is in no byte of the other side's page while it is hidden: what the
          // page received and holds is taken first, then the orders still hidden after it are searched for.
          for (const [mine, theirs] of [PLAYERS, [...PLAYERS].reverse()] as const) {
            const seen = await everything(seats[theirs]!);
            const salts = await heldSalts(seats[mine]!);
            const after = await stateNow();
            const hidden = Object.values(after.turnState?.activations ?? {}).filter(
              (a) => a.player === mine && a.order === null && after.turn === turn,
            );
            for (const activation of hidden) {
              const salt = salts[`${turn}/${activation.army}`];
              expect(salt, `${mine}'s page keeps ${activation.army}'s order`).toBeDefined();
              expect(seen, `${theirs}'s page holds ${activation.army}'s salt`).not.toContain(salt);
              secretsChecked++;
            }
          }
        } else {
          state = await until("the reveals and the next step", (s) => s.seq > state.seq || s.phase !== "action");
        }
      }
      // The reveals at battles and the end of the phase were sent by the pages themselves.
      state = await until("the Action phase's end", (s) => s.phase !== "action" || s.turn !== turn);
      const battles = () =>
        Object.values(state.battles)
          .filter((b) => b.turn === turn && b.status !== "resolved")
          .sort((a, b) => a.index - b.index) as BattleState[];
      while (state.phase === "battle" && battles().length > 0) {
        const battle = battles()[0]!;
        if (battle.status === "pending") {
          const reporter = seats[battle.attacker.player]!;
          const hands = handsOf(reporter);
          const form = reporter.page.locator(`[data-battle="${battle.id}"] [data-testid=result-form]`);
          await form.waitFor(WAIT);
          await expectSound(reporter);
          // docs/web.md's picture: the window as the reporter sees it, the sheet scrolled into its pane.
          if (SHOTS && !refusalSeen) {
            await reporter.page.locator(`[data-battle="${battle.id}"]`).scrollIntoViewIfNeeded();
            await reporter.page.screenshot({ path: join(SHOTS, "web-battle-sheet.png") });
          }
          const army = state.armies[battle.attacker.army] as unknown as ArmyState;
          const formation = army.formations[0]!;
          const [unit, present] = Object.entries(formation.units)[0]!;
          const lost = form.locator(`input[name="attacker-lost-${formation.id}-${unit}"]`);
          if (!refusalSeen) {
            // B4: more losses than the formation has: refused, and the page shows the rule's ID and sentence.
            await hands.fill(lost, String(present + 1));
            await hands.click(form.getByRole("button", { name: "Report the result" }));
            // Beside the row of the formation and unit it names, not under the form.
            const refusal = form.locator(
              `tr[data-row="attacker/${formation.id}/${unit}"] + tr.refusal-row .refusal[data-rule=B4]`,
            );
            await refusal.waitFor(WAIT);
            await expect(form.locator(".refusal").count()).resolves.toBe(1);
            expect(await refusal.textContent()).toContain(`lost ${present + 1} "${unit}" but has only ${present}`);
            refusalSeen = true;
          }
          await hands.fill(lost, String(Math.min(1, present)));
          await hands.fill(form.locator('input[name="attacker-vp"]'), String(battle.vpTarget));
          await hands.select(form.locator('select[name="outcome"]'), "draw");
          await hands.select(form.locator('select[name="outcome"]'), "attacker");
          await hands.click(form.getByRole("button", { name: "Report the result" }));
          state = await until("the result reported", (s) => s.battles[battle.id]!.status === "reported");
        } else {
          const confirmer = seats[battle.defender.player]!;
          // B4: the opponent sees every figure reported before confirming it.
          const reported = confirmer.page.getByTestId(`reported-${battle.id}`);
          await reported
            .locator("[data-reported='VPs won']")
            .filter({ hasText: String(battle.report!.result.attacker.vp) })
            .waitFor(WAIT);
          // Each loss beside what the attacker's roster had, for the defender to check against its own count.
          const attacker = state.armies[battle.attacker.army] as unknown as ArmyState;
          const lost = Object.entries(battle.report!.result.attacker.losses).flatMap(([formation, counts]) =>
            Object.entries(counts).map(([unit, count]) => {
              const had = attacker.formations.find((f) => f.id === formation)!.units[unit];
              return `${count} of ${had} ${unit} of ${formation}`;
            }),
          );
          await expect(reported.locator("[data-reported='units lost'] td").first().textContent()).resolves.toBe(
            lost.length === 0 ? "none" : lost.join(", "),
          );
          // Its own count, in the reporter's fields filled in with the figures reported: agreeing, then one figure
          // changed and named in words with both counts, then put back and confirmed.
          const hands = handsOf(confirmer);
          const own = confirmer.page.locator(`[data-battle="${battle.id}"] [data-testid=confirm-form]`);
          const vp = own.locator('input[name="attacker-vp"]');
          const reportedVp = battle.report!.result.attacker.vp;
          await expect(vp.inputValue()).resolves.toBe(String(reportedVp));
          const differences = confirmer.page.getByTestId(`count-differences-${battle.id}`);
          await expect(differences.textContent()).resolves.toBe("Your count agrees with the report.");
          await hands.fill(vp, String(reportedVp + 1));
          await differences
            .locator("[data-differs='attacker/vp']")
            .filter({ hasText: `Attacker's VPs won: reported ${reportedVp}, your count ${reportedVp + 1} (1 more)` })
            .waitFor(WAIT);
          await expect(differences.locator("li").count()).resolves.toBe(1);
          await expectSound(confirmer);
          await hands.fill(vp, String(reportedVp));
          await differences.filter({ hasText: "Your count agrees with the report." }).waitFor(WAIT);
          await expectSound(confirmer);
          await hands.click(own.getByRole("button", { name: "Confirm the result" }));
          state = await until("the battle resolved", (s) => s.battles[battle.id]!.status === "resolved");
          await seats["host"]!.page.getByTestId(`battle-status-${battle.id}`)
            .filter({ hasText: "Result:" })
            .waitFor(WAIT);
          battleFought = true;
        }
      }
      // E5: the End phase on each player's page (its rosters shown), each player done.
      state = await until("the End phase", (s) => s.phase === "end" || s.turn !== turn);
      for (const player of PLAYERS) {
        const { page } = seats[player]!;
        const hands = handsOf(seats[player]!);
        await page.getByTestId("end-phase").waitFor(WAIT);
        await expectSound(seats[player]!);
        const own = Object.values(state.armies).find((a) => a.player === player && a.status === "active")!;
        await expect(page.locator(`[data-roster="${own.id}"]`).textContent()).resolves.toContain(own.name);
        const unfought = Object.values(state.armies).find(
          (a) => a.player === player && a.status === "active" && a.battles === 0,
        );
        if (unfought) {
          // E5: only an army that has fought is disbanded: the refusal is shown by the field it concerns.
          const form = page.locator("form[data-action=DisbandArmy]");
          await hands.select(form.locator("select[name=army]"), unfought.id);
          await hands.click(form.getByRole("button"));
          await form.locator(".refusal[data-rule=E5]").waitFor(WAIT);
        }
        // E6: a formation that still has units is not replaced (nor is anything from the Reserves in turn 1).
        const replace = page.locator("form[data-action=ReplaceFormation]");
        const kept = (own as unknown as ArmyState).formations[0]!;
        await hands.select(replace.locator("select[name=army]"), own.id);
        await hands.select(replace.locator("select[name=formation]"), kept.id);
        await hands.select(replace.locator("select[name=with]"), `${kept.id}-t${turn}:${kept.formation}`);
        await hands.click(replace.getByRole("button"));
        await expect(replace.locator(".refusal[data-rule=E6]").textContent(WAIT)).resolves.toMatch(
          turn === 1 ? /the Reserves are never used in the first turn/ : /only a wiped-out formation may be replaced/,
        );
        if (player === "concord" && turn === 1) {
          // E6a: a new army picked, not typed: its formations from the catalogue, its commander among their units,
          // its square on the map, all by keyboard; the engine then refuses it (no Reserves in turn 1: E6).
          const raise = page.locator("form[data-action=RaiseArmy]");
          await hands.fill(raise.locator("input[name=name]"), "Fifth Vigil Army");
          await hands.select(raise.locator("select[name=formations-add]"), "concord-line-company");
          await hands.click(raise.getByRole("button", { name: "Add", exact: true }));
          const company = `concord-line-company-t${turn}`;
          await raise.locator(`[data-formation="${company}"]`).waitFor(WAIT);
          await hands.select(raise.locator("select[name=commander]"), `${company}:concord-vigil-command`);
          const square = [...newArmySquares(state, player, false)][0]!.split(",").map(Number) as Square;
          await chooseOnMap(seats[player]!, raise, hands, square, WAIT);
          await expectSound(seats[player]!);
          await hands.click(raise.getByRole("button", { name: "raise an army" }));
          await expect(raise.locator(".refusal[data-rule=E6]").textContent(WAIT)).resolves.toMatch(
            /the Reserves are never used in the first turn/,
          );
        }
        await hands.click(page.getByTestId("finish-end-phase"));
        await page
          .getByTestId("end-done")
          .or(page.getByTestId("moment").filter({ hasText: `Turn ${turn + 1}` }))
          .first()
          .waitFor(WAIT);
      }
      await until("the turn's end", (s) => s.turn > turn || s.status === "finished");
    }
    const final = await stateNow();
    console.log(
      `played to turn ${final.turn} (${final.phase}), event ${final.seq}: ${Object.values(final.battles).length} battle(s), ${secretsChecked} hidden orders searched for`,
    );
    expect(battleFought).toBe(true);
    expect(refusalSeen).toBe(true);
    expect(secretsChecked).toBeGreaterThan(0);

    // The salts were searched for where they would be: after their reveals each is in the other side's traffic.
    const revealed = (await everything(seats["concord"]!)) + (await everything(seats["horde"]!));
    for (const player of PLAYERS)
      for (const salt of Object.values(await heldSalts(seats[player]!))) expect(revealed).toContain(salt);

    const audit = await read<AuditReport>(`/campaigns/${CAMPAIGN}/audit`);
    expect(audit.findings).toEqual([]);
    expect(audit.ok).toBe(true);
    await seats["host"]!.page.getByTestId("history-tab").click();
    await expect(seats["host"]!.page.getByTestId("audit-verdict").textContent(WAIT)).resolves.toMatch(
      /^Everything recomputes/,
    );
    await expectSound(seats["host"]!);
    // The history on a phone too.
    await seats["horde"]!.page.getByTestId("history-tab").click();
    await seats["horde"]!.page.getByTestId("audit-verdict").waitFor(WAIT);
    await expectSound(seats["horde"]!);
    await seats["horde"]!.page.getByRole("button", { name: "The campaign now" }).click();
    for (const seat of Object.values(seats)) expect(seat.errors, seat.seat).toEqual([]);
  });

  it("steps the timeline back and forward by event, phase and turn and with the slider, the map drawn at each moment from the server", async () => {
    const { page } = seats["host"]!;
    const position = page.getByTestId("timeline-position");
    const seqShown = async () => Number((await position.textContent())!.match(/^#(\d+)/)![1]);
    const head = await seqShown();
    await page.locator("[data-step=back-event]").click();
    await position.filter({ hasText: `#${head - 1} ` }).waitFor(WAIT);
    await page.locator("[data-step=forward-event]").click();
    await position.filter({ hasText: `#${head} ` }).waitFor(WAIT);
    await page.locator("[data-step=back-turn]").click();
    await page.locator("[data-step=back-turn]").click();
    await position.filter({ hasText: "Turn 1" }).waitFor(WAIT);
    const turnOne = await seqShown();
    await page
      .locator(".history .map svg title")
      .filter({ hasText: "turn 1" })
      .first()
      .waitFor({ state: "attached", ...WAIT });
    await page.locator("[data-step=forward-phase]").click();
    await position.filter({ hasText: /Turn 1 (Battle|End)/ }).waitFor(WAIT);
    expect(await seqShown()).toBeGreaterThan(turnOne);
    await page.locator(".history input[type=range]").evaluate((slider: HTMLInputElement) => {
      slider.value = "0";
      slider.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await position.filter({ hasText: /^#1 / }).waitFor(WAIT);
    await page
      .locator(".history .map svg title")
      .filter({ hasText: "set-up" })
      .first()
      .waitFor({ state: "attached", ...WAIT });
    await page.locator("[data-step=forward-turn]").click();
    await position.filter({ hasText: "Turn 1 Action" }).waitFor(WAIT);
    await page.locator("[data-step=forward-phase]").click();
    await position.filter({ hasText: "Turn 1 Battle" }).waitFor(WAIT);
    await page
      .locator(".history .map svg title")
      .filter({ hasText: "turn 1, battle phase" })
      .first()
      .waitFor({ state: "attached", ...WAIT });
    if (SHOTS) await page.screenshot({ path: join(SHOTS, "web-timeline-audit.png"), fullPage: true });
  });

  it("makes a what-if branch at the moment on screen and shows its diff against the main line", async () => {
    const { page } = seats["host"]!;
    const form = page.getByTestId("create-branch");
    await form.locator("input[name=branch]").fill("what-if");
    await form.getByRole("button", { name: "Create the branch" }).click();
    const diff = page.getByTestId("diff");
    await diff.locator("h3").filter({ hasText: "what-if against main" }).waitFor(WAIT);
    await expect(diff.locator("tbody tr").count()).resolves.toBeGreaterThan(0);
    const branches = await read<{ branches: Array<{ name: string }> }>(`/campaigns/${CAMPAIGN}/branches`);
    expect(branches.branches.map((b) => b.name)).toEqual(["what-if"]);
    // A player sees the branch and its diff too.
    const concord = seats["concord"]!.page;
    await concord.getByTestId("history-tab").click();
    await concord.getByTestId("branches").getByRole("button", { name: "what-if" }).click(WAIT);
    await concord.getByTestId("diff").locator("h3").waitFor(WAIT);
  });

  it("plays the branch on from the players' pages, and switches back: the main line is left as it was", async () => {
    const mainBefore = await stateNow();
    for (const player of PLAYERS) {
      const { page } = seats[player]!;
      await page.getByTestId("history-tab").click();
      await page.locator('[data-play-branch="what-if"]').click(WAIT);
      await page.getByTestId("line").filter({ hasText: "what-if" }).waitFor(WAIT);
    }
    // One step of the branch, whatever it waits for at the fork: a battle's result reported or confirmed, or the
    // End phase finished, each given on the page of the player it waits on.
    const branch = await stateNow("what-if");
    const open = Object.values(branch.battles)
      .filter((b) => b.turn === branch.turn && b.status !== "resolved")
      .sort((a, b) => a.index - b.index)[0];
    if (branch.phase === "battle" && open?.status === "reported") {
      await seats[open.defender.player]!.page.getByRole("button", { name: "Confirm the result" }).click(WAIT);
    } else if (branch.phase === "battle" && open) {
      const form = seats[open.attacker.player]!.page.locator(`[data-battle="${open.id}"] [data-testid=result-form]`);
      await form.locator('input[name="attacker-vp"]').fill(String(open.vpTarget));
      await form.getByRole("button", { name: "Report the result" }).click(WAIT);
    } else {
      const player = PLAYERS.find((p) => !branch.turnState?.endPhaseDone.includes(p))!;
      await seats[player]!.page.getByTestId("finish-end-phase").click(WAIT);
    }
    const played = await until("the branch played on", (s) => s.seq > branch.seq, "what-if");
    expect(played.seq).toBeGreaterThan(branch.seq);
    expect((await stateNow()).seq).toBe(mainBefore.seq);
    const lines = await read<{ branches: Array<{ name: string; own: number }> }>(`/campaigns/${CAMPAIGN}/branches`);
    expect(lines.branches.find((b) => b.name === "what-if")!.own).toBeGreaterThan(0);
    for (const player of PLAYERS) {
      const { page } = seats[player]!;
      await page.getByRole("button", { name: "Back to the main line" }).click();
      await page.getByTestId("line").waitFor({ state: "detached", ...WAIT });
    }
  });

  it("E2 charts the forecast's odds by turn for a player, and the organiser's what-if comparison of the main line with a branch", async () => {
    const concord = seats["concord"]!.page;
    await concord.getByTestId("history-tab").click();
    const own = concord.getByTestId("forecast");
    await own.locator("input[name=runs]").fill("40");
    await own.locator("input[name=turns]").fill("3");
    const chart = await forecastChart(own);
    await expect(chart.locator("title").first().textContent()).resolves.toContain("from what concord may see");
    for (const side of [...PLAYERS, "draw"])
      await expect(chart.locator(`g[data-line=main][data-side=${side}] polyline`).count()).resolves.toBe(1);
    await concord.getByRole("button", { name: "The campaign now" }).click();

    const host = seats["host"]!.page;
    await host.getByTestId("history-tab").click();
    const panel = host.getByTestId("forecast");
    await panel.locator("input[name=runs]").fill("40");
    await panel.locator("input[name=turns]").fill("3");
    await panel.locator("select[name=against]").selectOption("what-if");
    const compared = await forecastChart(panel);
    await expect(compared.locator("title").first().textContent()).resolves.toMatch(
      /\(main from turn \d+ against what-if from turn \d+\)/,
    );
    await expect(compared.locator('g[data-line="what-if"] polyline').count()).resolves.toBe(PLAYERS.length + 1);
    const differences = panel.getByTestId("forecast-differences");
    await expect(differences.locator("tbody tr").count()).resolves.toBe(PLAYERS.length + 1);
    if (SHOTS) await panel.screenshot({ path: join(SHOTS, "web-forecast.png") });
    await expect(differences.locator("tbody tr").first().textContent()).resolves.toMatch(/%.*%.*[+-]?\d+\.\d%/);
  });

  it("T5 D1 exports the secrets file in the CLI's format and imports it into another browser of the same seat", async () => {
    const { page } = seats["concord"]!;
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-secrets").click()]);
    expect(download.suggestedFilename()).toBe("concord.json");
    const file = join(dir, "concord.json");
    await download.saveAs(file);
    const text = await readFile(file, "utf8");
    const held = await seats["concord"]!.secretsFile(CAMPAIGN);
    // The CLI's secrets file, byte for byte: FileSecrets writes JSON.stringify(secrets, null, 2) and a newline.
    expect(text).toBe(`${JSON.stringify(held, null, 2)}\n`);
    expect(Object.keys(held.orders ?? {}).length).toBeGreaterThan(0);
    expect(parseSecretsFile(text)).toEqual(held);
    // Another browser of the Concord's, signed in with a new invite the organiser issued on its page, takes the file
    // and holds the same secrets.
    const host = seats["host"]!.page;
    await host.getByRole("button", { name: "The campaign now" }).click();
    await host.locator("[data-testid=seats] tr[data-seat=concord]").getByRole("button", { name: "New invite" }).click();
    const link = await host.getByTestId("invite-link").inputValue(WAIT);
    expect(link).toMatch(new RegExp(`^${url}/join#.+`));
    const other = await openSeat(browser, "concord", link);
    await other.page.getByTestId("scoreboard").waitFor(WAIT);
    expect(await other.secretsFile(CAMPAIGN)).toEqual({});
    await other.page.locator(".secrets input[type=file]").setInputFiles(file);
    await other.page.locator(".secrets [role=status]").filter({ hasText: "Imported concord.json" }).waitFor(WAIT);
    expect(await other.secretsFile(CAMPAIGN)).toEqual(held);
    await other.context.close();
  });

  it("A2 under fog of war the enemy's strengths are in no byte a player's page received or holds", async () => {
    const setup = (await loadSetupFile(join(ROOT, "examples", "ashfall.setup.json"))) as Record<string, unknown>;
    const { pages, stateNow: fogNow } = await secondCampaign({
      ...setup,
      campaign: "fogfall",
      options: { advanced: { fogOfWar: true } },
    });
    // Both pages committed and gave their seeds: turn 1's Action phase, with the enemy's armies on every map.
    for (const player of PLAYERS)
      await pages[player]!.page.getByTestId("waiting")
        .filter({ hasText: "to choose who activates first" })
        .waitFor(WAIT);
    const truth = await fogNow();
    const points = (player: string) =>
      Object.values(truth.armies)
        .filter((a) => a.player === player)
        .map((a) => a.points as number);
    // A strength that is also a number of the set-up every seat reads (a formation's price, M) or one of the other
    // side's own is no secret the bytes could tell apart: the others are searched for.
    const published = new Set((JSON.stringify(truth.setup).match(/\d+/g) ?? []).map(Number));
    for (const [mine, theirs] of [PLAYERS, [...PLAYERS].reverse()] as const) {
      const secret = points(mine).filter((p) => !points(theirs).includes(p) && !published.has(p));
      expect(secret.length).toBeGreaterThanOrEqual(3);
      const pattern = (p: number) =>
        new RegExp(`(?<![0-9A-Za-z_.,])(${p}|${p.toLocaleString("en")})(?![0-9A-Za-z_]|,[0-9])`);
      const seen = await everything(pages[theirs]!);
      for (const p of secret) expect(seen, `${theirs}'s page holds ${mine}'s ${p} pts`).not.toMatch(pattern(p));
      // The search finds them where they may be: on the side's own page.
      const own = await everything(pages[mine]!);
      for (const p of secret) expect(own).toMatch(pattern(p));
    }
    for (const seat of Object.values(pages)) await seat.context.close();
  });

  it("A3 T5 A8 scouts an enemy army through the pages: the scout's Advance revealed, the answer, a size out of the band refused beside its row, the size stated, the scout attacking on the Advance it revealed; then the stall claimed and the phase closed by the organiser, the battle fought and A8 defences bought with the war chest", async () => {
    const ashfall = (await loadSetupFile(join(ROOT, "examples", "ashfall.setup.json"))) as never;
    const { pages, until: scoutUntil } = await secondCampaign(scoutingSetup(ashfall) as never);
    const [concord, horde] = [pages["concord"]!.page, pages["horde"]!.page];
    // T2: the winner lets the Concord activate first; the Concord scouts by keyboard, and its page sounds for it.
    const hands = handsOf(pages["concord"]!);
    const declared = await scoutingDeclared(pages, scoutUntil, hands, () => expectSound(pages["concord"]!));
    const id = declared.id;
    let state = declared.state;
    const pledge = state.turnState!.scouting!.pledges["c6"]!;
    expect(pledge.order).toBe("advance");
    await horde.getByTestId(`answer-${id}`).waitFor(WAIT);
    await expectSound(pages["horde"]!);
    await horde.getByTestId(`answer-${id}`).getByRole("button", { name: "Reveal nothing" }).click(WAIT);
    state = await scoutUntil("the scouting rolled", (s) => s.turnState!.scouting!.scoutings[id]!.band !== null);
    const truth = state.armies["h5"]!.points as number;
    const size = horde.getByTestId(`state-size-${id}`);
    // Sent with Enter from the field, as a person may: on the phone a feed's update can move the button under a click.
    await size.locator("input[name=points]").fill(String(truth + 5000));
    await size.locator("input[name=points]").press("Enter");
    const refusal = size.locator(".refusal[data-rule=A3]");
    await expect(refusal.textContent(WAIT)).resolves.toContain(String(truth + 5000));
    await size.locator("input[name=points]").fill(String(truth));
    await size.locator("input[name=points]").press("Enter");
    await scoutUntil("the size stated", (s) => s.turnState!.scouting!.scoutings[id]!.statedPoints === truth);
    await concord
      .locator(`[data-scouting="${id}"]`)
      .filter({ hasText: `stated ${truth.toLocaleString("en")} pts` })
      .waitFor(WAIT);
    // The scout attacks the army it scouted, on the Advance it revealed: its activation carries the commitment the
    // scouting gave, so the page kept the salt it revealed.
    await concord.locator('button[data-army="c6"]').click(WAIT);
    await concord.locator("input[name=order][value=advance]").check();
    await concord.locator('[data-square="9,4"]').waitFor({ state: "attached", ...WAIT });
    await clickSquare(pages["concord"]!, [9, 4]);
    await concord.locator(`[data-path-step="2"]`).waitFor({ state: "attached", ...WAIT });
    await concord.getByTestId("confirm-order").click();
    state = await scoutUntil("the scout activated", (s) => s.turnState?.activations["c6"] !== undefined);
    expect(state.turnState!.activations["c6"]!.commitment).toBe(pledge.commitment);
    // T5 stall: the Horde never gives the attacked army's order; the Concord claims the stall on its page, and the
    // organiser closes the phase on its own, which says who was waited on.
    await concord.getByTestId("claim-stall").getByRole("button", { name: "Claim the stall (T5)" }).click(WAIT);
    state = await scoutUntil("the stall claimed", (s) => s.turnState?.stallClaim !== undefined);
    const battle = Object.values(state.battles).find((b) => b.defender.army === "h5" && b.turn === state.turn)!;
    expect(state.turnState!.stallClaim!.owed).toEqual([
      { army: "h5", player: "horde", owes: "order", battle: battle.id },
    ]);
    const host = pages["host"]!.page;
    await host.getByTestId("close-action-phase").click(WAIT);
    state = await scoutUntil("the Action phase closed", (s) => s.phase !== "action");
    const closes = host.getByTestId("closes");
    await closes
      .filter({
        hasText: `${sideName(state, "concord")} claims the Action phase is stalled, waiting on ${state.armies["h5"]!.name}'s order (${sideName(state, "horde")})`,
      })
      .waitFor(WAIT);
    await closes.filter({ hasText: "the host closed the stalled Action phase; not activated:" }).waitFor(WAIT);
    // B4: the scout's battle, reported by the Concord and confirmed by the Horde on their pages.
    const result = concord.locator(`[data-battle="${battle.id}"] [data-testid=result-form]`);
    await result.locator('input[name="attacker-vp"]').fill(String(state.battles[battle.id]!.vpTarget));
    await result.getByRole("button", { name: "Report the result" }).click(WAIT);
    await scoutUntil("the result reported", (s) => s.battles[battle.id]!.status === "reported");
    await horde.locator(`[data-battle="${battle.id}"]`).getByRole("button", { name: "Confirm the result" }).click(WAIT);
    state = await scoutUntil("the End phase", (s) => s.phase === "end");
    // A8: the war chest's income spent on the Concord's page, on defences where its First Vigil Army stands.
    const chest = state.ledgers["concord"]!.warChest as number;
    expect(chest).toBeGreaterThanOrEqual(50);
    await concord
      .getByTestId("end-phase")
      .filter({ hasText: `War chest: ${chest} pts` })
      .waitFor(WAIT);
    // The square is chosen on the map among those outlined, by keyboard.
    const defences = concord.locator("form[data-action=BuyDefences]");
    const at = state.armies["c1"]!.at!;
    expect(defenceSquares(state, "concord").has(at.join(","))).toBe(true);
    await chooseOnMap(pages["concord"]!, defences, hands, at, WAIT);
    await expectSound(pages["concord"]!);
    await hands.fill(defences.locator("input[name=points]"), "50");
    await hands.click(defences.getByRole("button", { name: "buy defences" }));
    state = await scoutUntil("the defences bought", (s) => s.ledgers["concord"]!.warChest === chest - 50);
    expect(state.defences[state.armies["c1"]!.at!.join(",")]).toBe(50);
    // The form says so where it was, not only the latest events.
    await defences.getByTestId("done").filter({ hasText: "Done: buy defences." }).waitFor(WAIT);
    // A8: a new army bought is picked as one raised is (formations, commander, a square by the home base); the war
    // chest's 0 pts left are not enough, which the engine says under the form.
    const buy = concord.locator("form[data-action=BuyArmy]");
    await hands.fill(buy.locator("input[name=name]"), "Sixth Vigil Army");
    for (let i = 0; i < 2; i++) {
      await hands.select(buy.locator("select[name=formations-add]"), "concord-line-company");
      await hands.click(buy.getByRole("button", { name: "Add", exact: true }));
    }
    await buy.locator("[data-formation]").nth(1).waitFor(WAIT);
    await hands.select(
      buy.locator("select[name=commander]"),
      `concord-line-company-t${state.turn}:concord-vigil-command`,
    );
    const near = [...newArmySquares(state, "concord", true)][0]!.split(",").map(Number) as Square;
    await chooseOnMap(pages["concord"]!, buy, hands, near, WAIT);
    await hands.click(buy.getByRole("button", { name: "buy a new army" }));
    await expect(buy.locator(".refusal[data-rule=A8]").textContent(WAIT)).resolves.toContain("war chest");
    for (const seat of Object.values(pages)) {
      expect(seat.errors, seat.seat).toEqual([]);
      await seat.context.close();
    }
  });

  it("A3 a size typed while the page still finishes its answer to the scouting is the size sent: the answer's end leaves the field as typed", async () => {
    const ashfall = (await loadSetupFile(join(ROOT, "examples", "ashfall.setup.json"))) as never;
    const setup = { ...scoutingSetup(ashfall), campaign: "scoutfall-typing" };
    const { pages, until } = await secondCampaign(setup as never);
    const horde = pages["horde"]!.page;
    const { id } = await scoutingDeclared(pages, until);
    // The Horde page's reads of the state are held from its answer on: the page shows the size's field from the read
    // its answer's refresh makes, and is still taking its chores (the next read) while the size is typed.
    const reads = heldStateReads(horde, setup.campaign);
    await horde.getByTestId(`answer-${id}`).getByRole("button", { name: "Reveal nothing" }).click(WAIT);
    const state = await until("the scouting rolled", (s) => s.turnState!.scouting!.scoutings[id]!.band !== null);
    await reads.release();
    const points = horde.getByTestId(`state-size-${id}`).locator("input[name=points]");
    const bluff = String((state.armies["h5"]!.points as number) + 5000);
    await points.fill(bluff);
    await reads.stop();
    await settled(horde, setup.campaign);
    expect(await points.inputValue()).toBe(bluff);
    await points.press("Enter");
    await expect(
      horde.getByTestId(`state-size-${id}`).locator(".refusal[data-rule=A3]").textContent(WAIT),
    ).resolves.toContain(bluff);
    for (const seat of Object.values(pages)) {
      expect(seat.errors, seat.seat).toEqual([]);
      await seat.context.close();
    }
  });

  it("renders a 40 x 30 map with 80 armies in Chromium (goal: 16 ms; figure in docs/performance.md)", async () => {
    const { text } = await browserBundle(join(ROOT, "src", "map", "render-map.ts"));
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${url}/`);
    const view = JSON.parse(JSON.stringify((await import("../../bench/map.js")).bigMapView()));
    const source = text.replace(/export\s*\{[^}]*\};?\s*$/, "");
    const figures = await page.evaluate(
      ({ source, view }) => {
        const renderMap = new Function(`${source}; return renderMap;`)() as (v: unknown, o: unknown) => string;
        const render = () => renderMap(view, { viewer: "red" });
        for (let i = 0; i < 20; i++) render();
        const times: number[] = [];
        let bytes = 0;
        for (let i = 0; i < 200; i++) {
          const start = performance.now();
          bytes = render().length;
          times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        return { median: times[100]!, p90: times[180]!, bytes };
      },
      { source, view },
    );
    const node = timeMapRender(200);
    console.log(
      `renderMap, 40 x 30, 80 armies, in Chromium: median ${figures.median.toFixed(2)} ms, p90 ${figures.p90.toFixed(2)} ms (${Math.round(figures.bytes / 1024)} KiB); in Node: median ${node.medianMs.toFixed(2)} ms`,
    );
    expect(figures.bytes).toBe(node.bytes);
    await page.context().close();
  });
});
