/**
 * Debian's chromium driven by playwright-core (never a downloaded browser; `npm run test:slow` installs chromium with
 * apt-get when it is missing), and a seat's page with everything it received and keeps: the campaign routes' answers
 * and the live feed's messages (through the DevTools protocol, as an EventSource's stream has no body to read), its
 * DOM, its IndexedDB, its web storage and its cookies, for a test to search.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { PartySecrets } from "../../src/client/party-secrets.js";

export const CHROMIUM = "/usr/bin/chromium";
/** A laptop's window, and a phone's. */
export const LAPTOP = { width: 1280, height: 720 };
export const PHONE = { width: 390, height: 844 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"], headless: true });
}

export interface SeatPage {
  seat: string;
  context: BrowserContext;
  page: Page;
  /** Every answer of a campaign route and every feed message so far, in the order they came. */
  received: string[];
  /** Everything the page holds now: DOM, IndexedDB, local and session storage, cookies. */
  holdings(): Promise<string>;
  /** Errors the page's scripts threw. */
  errors: string[];
  /** The errors its console showed (failed requests among them). */
  consoleErrors: string[];
  /** The seat's secrets file for a campaign as its page keeps it in IndexedDB. */
  secretsFile(campaign: string): Promise<PartySecrets>;
}

/**
 * A browser context of its own for a seat (or another tab in a seat's `context`), its traffic recorded from the start;
 * `beforeOpen` may route its requests; then the page opens its invite link (or the page, `/`, in a tab).
 */
export async function openSeat(
  browser: Browser,
  seat: string,
  link: string,
  options: {
    context?: BrowserContext;
    beforeOpen?: (page: Page) => Promise<void>;
    /** The window's size: a laptop's (1280 x 720) unless told. */
    viewport?: { width: number; height: number };
  } = {},
): Promise<SeatPage> {
  const context =
    options.context ??
    (await browser.newContext({
      viewport: options.viewport ?? LAPTOP,
      isMobile: options.viewport === PHONE,
      hasTouch: options.viewport === PHONE,
    }));
  const page = await context.newPage();
  const received: string[] = [];
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.eventSourceMessageReceived", (message) => void received.push(message.data));
  page.on("response", (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (new URL(response.url()).pathname.startsWith("/campaigns") && !type.startsWith("text/event-stream"))
      void response.text().then(
        (text) => received.push(text),
        () => {},
      );
  });
  const errors: string[] = [];
  page.on("pageerror", (error) => void errors.push(error.message));
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(`${message.text()} ${message.location().url}`);
  });
  await options.beforeOpen?.(page);
  await page.goto(link);
  const holdings = async () => {
    const stored = await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open("epicwar");
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const names = [...db.objectStoreNames];
      const values = await Promise.all(
        names.map(
          (name) =>
            new Promise<unknown[]>((resolve, reject) => {
              const all = db.transaction(name).objectStore(name).getAll();
              all.onsuccess = () => resolve(all.result);
              all.onerror = () => reject(all.error);
            }),
        ),
      );
      db.close();
      return JSON.stringify({ values, local: { ...localStorage }, session: { ...sessionStorage } });
    });
    const cookies = JSON.stringify(await context.cookies());
    return [await page.content(), stored, cookies].join("\n");
  };
  const secretsFile = async (campaign: string) => {
    const party = seat.split(" ").at(-1)!;
    const text = await page.evaluate(
      (key) =>
        new Promise<string | undefined>((resolve, reject) => {
          const open = indexedDB.open("epicwar");
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const read = open.result.transaction("secrets").objectStore("secrets").get(key);
            read.onsuccess = () => resolve(read.result as string | undefined);
            read.onerror = () => reject(read.error);
          };
        }),
      `${campaign}/${party}`,
    );
    return text === undefined ? {} : (JSON.parse(text) as PartySecrets);
  };
  return { seat, context, page, received, holdings, errors, consoleErrors, secretsFile };
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * What axe-core finds wrong with the page as it is now, for people with a screen reader, a keyboard or weak sight:
 * each violation of any impact as "rule (impact): the elements", so that a test's failure names them.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document);
    return results.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  });
  return violations;
}

interface AxeResults {
  violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }>;
}

/**
 * What makes the document wider than its window (a page that scrolls sideways): nothing, or the outermost elements
 * that reach past its right edge, named by tag, class and test id.
 */
export const sidewaysOverflow = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const wide = [...document.body.querySelectorAll("*")].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.right > width + 1 && box.width > 0 && !element.closest(".map-scroll");
    });
    const outermost = wide.filter((element) => !wide.some((other) => other !== element && other.contains(element)));
    const named = outermost.map(
      (e) =>
        `${e.tagName.toLowerCase()}.${e.className} ${e.getAttribute("data-testid") ?? ""} (${Math.round(e.getBoundingClientRect().right)})`,
    );
    return named.length > 0 ? named.slice(0, 5) : [`the document: ${document.documentElement.scrollWidth}`];
  });
