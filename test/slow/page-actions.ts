/** A player's actions on the web page, done as a person does them: by clicking, or by keyboard alone (docs/web.md). */
import type { Locator, Page } from "playwright-core";
import type { Square } from "../../events/common.js";
import type { ArmyState } from "../../projections/state.js";
import { pendingDefenders } from "../../src/rules/action-common.js";
import type { CampaignView } from "../../src/views/view.js";
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
 * by an attack), then the square `targetOf` picks; confirmed. With `shot`, a picture of the page before the
 * confirmation, from the map's top (its zoom, the square's words, the map panned to the square chosen).
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
  const target = pinned ? undefined : targetOf(state, army);
  if (target !== undefined) {
    await page.locator(`[data-square="${target}"]`).waitFor({ state: "attached", ...wait });
    await clickSquare(seat, target.split(",").map(Number) as Square);
    const steps = reachable(state, army, "charge").paths.get(target)!.length;
    await page.locator(`[data-path-step="${steps - 1}"]`).waitFor({ state: "attached", ...wait });
  }
  if (shot) {
    await page.getByTestId("map-view").evaluate((map) => map.scrollIntoView());
    await page.screenshot({ path: shot });
  }
  await page.getByTestId("confirm-order").click(wait);
  await activated(seat, army, wait);
}

/** Presses Tab until the element focused matches the selector (at most 300 presses), backwards with `back`. */
export async function tabTo(seat: SeatTab, selector: string, back = false): Promise<void> {
  for (let presses = 0; presses < 300; presses++) {
    if (await seat.page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await seat.page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`${seat.seat}: Tab never reached ${selector}`);
}

/** Moves the map's keyboard focus to a square with the arrow keys, from the square it is on. */
export async function arrowTo(seat: SeatTab, [x, y]: Square): Promise<void> {
  const grid = seat.page.locator("[data-testid=map] [role=grid]").first();
  if (!(await grid.evaluate((element) => element === document.activeElement)))
    await tabTo(seat, "[data-testid=map] [role=grid]", true);
  const [fx, fy] = (await grid.getAttribute("aria-activedescendant"))!.split("-").slice(-2).map(Number) as Square;
  for (let i = 0; i < Math.abs(x - fx); i++) await seat.page.keyboard.press(x > fx ? "ArrowRight" : "ArrowLeft");
  for (let i = 0; i < Math.abs(y - fy); i++) await seat.page.keyboard.press(y > fy ? "ArrowDown" : "ArrowUp");
  const now = await grid.getAttribute("aria-activedescendant");
  if (!now?.endsWith(`-square-${x}-${y}`))
    throw new Error(`${seat.seat}: the map's focus is on ${now}, not (${x},${y})`);
}

/** How a person works a page's controls: with a pointer, or with the keyboard alone. */
export interface Hands {
  click(target: Locator): Promise<void>;
  fill(target: Locator, text: string): Promise<void>;
  select(target: Locator, value: string): Promise<void>;
}

export const pointer = (wait: { timeout: number }): Hands => ({
  click: (target) => target.click(wait),
  fill: (target, text) => target.fill(text, wait),
  select: async (target, value) => void (await target.selectOption(value, wait)),
});

/**
 * The keyboard alone: Tab to the control (from wherever the focus is), then Enter, typing, or the arrow keys through
 * a list's options.
 */
export function keyboard(seat: SeatTab, wait: { timeout: number }): Hands {
  const { page } = seat;
  const focus = async (target: Locator) => {
    await target.waitFor(wait);
    // Backwards when the focus is further down the page than the control.
    const back = await target.evaluate((element) => {
      element.setAttribute("data-keyboard-target", "");
      const active = document.activeElement;
      return (
        active !== null &&
        active !== document.body &&
        element.compareDocumentPosition(active) === Node.DOCUMENT_POSITION_FOLLOWING
      );
    });
    try {
      await tabTo(seat, "[data-keyboard-target]", back);
    } finally {
      await target.evaluate((element) => element.removeAttribute("data-keyboard-target"));
    }
  };
  return {
    click: async (target) => {
      await focus(target);
      await page.keyboard.press("Enter");
    },
    fill: async (target, text) => {
      await focus(target);
      await page.keyboard.press("Control+A");
      await page.keyboard.type(text);
    },
    select: async (target, value) => {
      await focus(target);
      const options = await target
        .locator("option")
        .evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value));
      const now = options.indexOf(await target.inputValue());
      const wanted = options.indexOf(value);
      if (wanted < 0) throw new Error(`${seat.seat}: no option "${value}" among ${options.join(", ")}`);
      for (let i = 0; i < Math.abs(wanted - now); i++)
        await page.keyboard.press(wanted > now ? "ArrowDown" : "ArrowUp");
      const chosen = await target.inputValue();
      if (chosen !== value) throw new Error(`${seat.seat}: the arrows chose "${chosen}", not "${value}"`);
    },
  };
}

/**
 * A form's square chosen on the map by keyboard: its "Choose on the map" pressed (the page puts the keyboard on the
 * map), the arrows to the square, Enter; resolves once the form shows the square.
 */
export async function chooseOnMap(
  seat: SeatTab,
  form: Locator,
  hands: Hands,
  square: Square,
  wait: { timeout: number },
) {
  await hands.click(form.getByRole("button", { name: "Choose on the map" }));
  await arrowTo(seat, square);
  await seat.page.keyboard.press("Enter");
  await form
    .getByTestId("square-at")
    .filter({ hasText: `(${square.join(",")})` })
    .waitFor(wait);
}
