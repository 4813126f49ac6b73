/**
 * The page in a campaign against the computer (docs/computer.md, docs/web.md): the player's scoreboard says which side
 * the computer plays, and the organiser's seats offer no invite for it. The start screen that makes such a campaign is
 * test/slow/web-new-campaign.test.ts's.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtWebPage } from "../../src/server/web-page.js";
import { COMPUTER, HUMAN } from "../support/computer-human.js";
import { serveAshfall } from "../remote/served-ashfall.js";
import { launchChromium, openSeat } from "./browser.js";

const WAIT = { timeout: 60_000 };

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);

afterAll(() => browser?.close());

/**
 * A seat's page in Ashfall against the computer, served with the built page on a server of the test's own (its
 * folders are the test's); the page's script errors are none.
 */
async function withSeatPage(seat: string, look: (page: Page) => Promise<void>): Promise<void> {
  const webPage = builtWebPage();
  if (!webPage) throw new Error("the web page is not built: npm run build builds it");
  const served = await serveAshfall({ computer: { seat: COMPUTER } }, webPage);
  try {
    const { page, errors } = await openSeat(browser, seat, `${served.url}/join#${served.invites[seat]}`);
    await look(page);
    expect(errors).toEqual([]);
    await page.context().close();
  } finally {
    await served.close();
  }
}

describe("the page against the computer", () => {
  it("shows the player which side the computer plays", async () => {
    await withSeatPage(HUMAN, async (page) => {
      const computerSide = page.locator(`[data-testid="scoreboard"] tr[data-side="${COMPUTER}"]`);
      await expect.poll(() => computerSide.textContent(), WAIT).toMatch(/The Cinder Horde.*\(played by the computer\)/);
      expect(await page.locator(`tr[data-side="${HUMAN}"] [data-testid="computer-side"]`).count()).toBe(0);
    });
  }, 120_000);

  it("offers the organiser no invite for the computer's seat, and one for every other", async () => {
    await withSeatPage("host", async (page) => {
      const seatRow = (seat: string) => page.locator(`[data-testid="seats"] tr[data-seat="${seat}"]`);
      await expect.poll(() => seatRow(COMPUTER).textContent(), WAIT).toContain("played by the computer");
      expect(await seatRow(COMPUTER).locator("button").count()).toBe(0);
      expect(await seatRow(HUMAN).locator("button", { hasText: "New invite" }).count()).toBe(1);
    });
  }, 120_000);
});
