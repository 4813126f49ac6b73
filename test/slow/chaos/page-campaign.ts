/**
 * A campaign a chaos soak plays through the web page, each seat in two tabs of one browser (as a person who opened
 * the page twice): the pages take the seat's chores by themselves; the decisions the demo's commanders would make
 * next are clicked, each in a tab of the seat's chosen at random. Whatever the server goes through, the campaign must
 * move on: a decision that does not land is given again, and the campaign not moving for a bounded while once the chaos
 * is over is stuck.
 */
import type { Browser, Page } from "playwright-core";
import type { ArmyState, CampaignState } from "../../../projections/state.js";
import { nextDecision } from "../../../src/demo/play.js";
import type { CampaignView } from "../../../src/views/view.js";
import { openSeat, type SeatPage } from "../browser.js";
import { activate, type SeatTab } from "../page-actions.js";

export interface SeatTabs {
  seat: string;
  first: SeatPage;
  tabs: SeatTab[];
  /** Errors the scripts of any of its tabs threw. */
  errors: string[];
}

/** A seat's browser signed in from its invite link, and a second tab of it opened on the page. */
export async function openSeatTwice(browser: Browser, seat: string, link: string): Promise<SeatTabs> {
  const first = await openSeat(browser, seat, link);
  const second = await first.context.newPage();
  const errors = first.errors;
  second.on("pageerror", (error) => void errors.push(`second tab: ${error.message}`));
  await second.goto(new URL("/", link).href);
  return { seat, first, tabs: [first, { seat, page: second }], errors };
}

/** Signs a seat's browser in again with a fresh invite, in one of its tabs (its token revoked). */
export async function signInAgain(seat: SeatTabs, link: string): Promise<void> {
  await seat.tabs[0]!.page.goto(link);
}

/** How long one click, or a wait for what it leads to, may take. */
const CLICK = { timeout: 10_000 };
/** How long the campaign may stand still (no new event) before it is called stuck. */
const STILL_MS = 120_000;

/**
 * Plays the campaign through the pages until it finishes, or throws naming where it stood still. `truth` reads the
 * campaign as the organiser sees it; `waiting` says what it waits on (for the message).
 */
export async function playThroughPages(options: {
  seats: Record<string, SeatTabs>;
  truth: () => Promise<CampaignView>;
  waiting: () => Promise<string>;
  random: () => number;
  deadline: () => number;
  /**
   * When the chaos ended (Infinity while it goes on): only from then on does standing still count. A server killed
   * every second or two, on a loaded machine, can leave a page no time to finish a decision: whether the campaign is
   * stuck is judged once it has a server that stays up.
   */
  calmSince: () => number;
  /** Counts kept as it plays: decisions clicked, and clicks that did not land and were tried again. */
  progress: { decisions: number; retries: number; lastMiss?: string };
}): Promise<void> {
  const { progress } = options;
  let lastSeq = -1;
  let stillSince = Date.now();
  // Bounded by the deadline, and by the count: a campaign of Ashfall takes a few hundred decisions.
  for (let step = 0; step < 5_000; step++) {
    const state = await options.truth();
    if (state.status === "finished") return;
    if (state.seq !== lastSeq) {
      lastSeq = state.seq;
      stillSince = Date.now();
    }
    const still = Date.now() - Math.max(stillSince, options.calmSince());
    if (still > STILL_MS || Date.now() > options.deadline()) {
      throw new Error(
        `the page-played campaign stood still (${progress.decisions} decisions clicked, ${progress.retries} missed, the last: ${progress.lastMiss ?? "none"}) at event ${state.seq} (turn ${state.turn}, ${state.phase}) for ${Math.round((Date.now() - stillSince) / 1000)} s, ${Math.round(Math.max(0, still) / 1000)} s of them after the chaos, waiting on ${await options.waiting()}`,
      );
    }
    const decision = nextDecision(state as unknown as CampaignState);
    if (!decision) {
      // The campaign waits on chores (the pages' or the server's): nothing to click.
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    const seat = options.seats[decision.actor]!;
    const index = Math.floor(options.random() * seat.tabs.length);
    const tab = seat.tabs[index]!;
    try {
      await decide(tab, state, decision as unknown as Record<string, unknown>);
      progress.decisions++;
    } catch (error) {
      // The click did not land (the server down, a page reloading, the state moved on): read again and retry.
      progress.retries++;
      progress.lastMiss = `${decision.type} by ${decision.actor} in tab ${index + 1}: ${(error as Error).message.split("\n")[0]}`;
    }
    await movedOn(options.truth, state.seq);
  }
  throw new Error("the page-played campaign took more than 5,000 steps");
}

async function movedOn(truth: () => Promise<CampaignView>, seq: number): Promise<void> {
  const until = Date.now() + CLICK.timeout;
  while (Date.now() < until && (await truth()).seq === seq) await new Promise((resolve) => setTimeout(resolve, 200));
}

/** One decision of the demo's commanders, given on a page by clicking as a person would. */
async function decide(tab: SeatTab, state: CampaignView, decision: Record<string, unknown>): Promise<void> {
  const page: Page = tab.page;
  switch (decision["type"]) {
    case "ChooseFirst":
      return page.getByTestId("choose-first").getByRole("button", { name: "I do" }).click(CLICK);
    case "ActivateArmy":
      return activate(tab, state, state.armies[String(decision["army"])] as unknown as ArmyState, CLICK);
    case "CloseActionPhase":
      return page.getByTestId("close-action-phase").click(CLICK);
    case "ReportBattleResult": {
      const battle = state.battles[String(decision["battle"])]!;
      const form = page.locator(`[data-battle="${battle.id}"] [data-testid=result-form]`);
      await form.locator('input[name="attacker-vp"]').fill(String(battle.vpTarget), CLICK);
      await form.locator('select[name="outcome"]').selectOption("attacker", CLICK);
      return form.getByRole("button", { name: "Report the result" }).click(CLICK);
    }
    case "ConfirmBattleResult":
      return page
        .locator(`[data-battle="${String(decision["battle"])}"]`)
        .getByRole("button", { name: "Confirm the result" })
        .click(CLICK);
    default:
      // The End phase: whatever the commanders would buy, the page's player finishes it.
      return page.getByTestId("finish-end-phase").click(CLICK);
  }
}
