/** A player's actions on the web page, done as a person does them: by clicking (docs/web.md). */
import type { Page } from "playwright-core";
import type { Square } from "../../events/common.js";
import type { ArmyState } from "../../projections/state.js";
import { pendingDefenders } from "../../src/rules/action-common.js";
import type { CampaignView } from "../../src/views.js";
import { reachable } from "../../src/web/rules-view.js";

/** A seat's page (or one of its tabs). */
export interface SeatTab {
  seat: string;
  page: Page;
}

const distance = (a: Square, b: Square) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);

/** Clicks a square of a page's map, where the page draws it. */
export async function clickSquare(seat: SeatTab, [x, y]: Square): Promise<void> {
  await seat.page.getByTestId("map").first().locator(`[data-cell="${x},${y}"]`).click();
}

/** The square an activation goes to: an attack if the order reaches one, else the square nearest an enemy. */
export function targetOf(state: CampaignView, army: ArmyState): string | undefined {
  const reach = reachable(state, army, "charge");
  const enemies = Object.values(state.armies).filter((a) => a.player !== army.player && a.at && a.status === "active");
  const nearest = (key: string) => {
    const square = key.split(",").map(Number) as Square;
    return Math.min(...enemies.map((enemy) => distance(square, enemy.at!)));
  };
  return [...reach.attacks][0] ?? [...reach.paths.keys()].sort((a, b) => nearest(a) - nearest(b))[0];
}

/** Waits for the army's activation to be taken by the page (it no longer offers the army), or fails with the refusal it shows. */
export async function activated(seat: SeatTab, army: ArmyState, wait: { timeout: number }): Promise<void> {
  const { page } = seat;
  const done = page.locator(`button[data-army="${army.id}"]`).waitFor({ state: "detached", ...wait });
  const refused = page
    .locator(".refusal")
    .waitFor(wait)
    .then(async () => {
      throw new Error(
        `${seat.seat}'s activation of ${army.id} was refused: ${await page.locator(".refusal").textContent()}`,
      );
    });
  // The wait that loses the race ends with its own timeout: not an error of the test.
  done.catch(() => {});
  refused.catch(() => {});
  await Promise.race([done, refused]);
}

/**
 * One activation as the player gives it on the page: the army clicked, Charge chosen (Fortify for a defender pinned
 * by an attack), then an attack if the highlighted squares hold one, else the square nearest an enemy; confirmed
 * (after a screenshot to `shot`, when given). Resolves once the page no longer offers the army; a refusal the page
 * shows instead fails with its words.
 */
export async function activate(
  seat: SeatTab,
  state: CampaignView,
  army: ArmyState,
  wait: { timeout: number },
  shot?: string,
): Promise<void> {
  const { page } = seat;
  await page.locator(`button[data-army="${army.id}"]`).click(wait);
  const pinned = pendingDefenders(state as never).some((battle) => battle.defender.army === army.id);
  await page.locator(`input[name=order][value=${pinned ? "fortify" : "charge"}]`).check(wait);
  if (!pinned) {
    const target = targetOf(state, army);
    if (target !== undefined) {
      await page.locator(`[data-square="${target}"]`).waitFor({ state: "attached", ...wait });
      await clickSquare(seat, target.split(",").map(Number) as Square);
      const steps = reachable(state, army, "charge").paths.get(target)!.length;
      await page.locator(`[data-path-step="${steps - 1}"]`).waitFor({ state: "attached", ...wait });
    }
  }
  if (shot) await page.screenshot({ path: shot });
  await page.getByTestId("confirm-order").click(wait);
  await activated(seat, army, wait);
}
