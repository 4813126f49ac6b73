import { mkdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { advancedRule } from "../../projections/advanced.js";
import { replaceDurably } from "../client/secrets.js";
import type { SetupFile } from "../setup/setup-file.js";
import { COMPUTER_LEVELS, type ComputerLevel } from "./decide.js";

/** Which seat of a campaign the computer plays, at which level, with how long to think per decision. */
export interface ComputerSettings {
  seat: string;
  level: ComputerLevel;
  /** The searching level's thinking time per decision, in milliseconds. */
  thinkMs: number;
}

/**
 * The searching level's default thinking time per decision: some 11 decisions a turn of Ashfall then keep a player at
 * the keyboard waiting 3 to 5 seconds a turn on a 2-core machine, no longer than it takes to read the turn's events
 * (docs/computer.md).
 */
export const DEFAULT_THINK_MS = 250;
/** The longest thinking time an organiser may set per decision: a minute. */
export const MAX_THINK_MS = 60_000;

/** A `--computer` value that cannot be read: why, naming what would be accepted. */
export class ComputerSettingsError extends Error {
  override readonly name = "ComputerSettingsError";
}

/**
 * Reads `SEAT[:LEVEL]` (the level scripted unless given) for a campaign whose players are `players`; `thinkMs` is the
 * searching level's time per decision.
 */
export function parseComputer(
  spec: string,
  players: readonly string[],
  thinkMs: number = DEFAULT_THINK_MS,
): ComputerSettings {
  const [seat = "", level = "scripted", ...rest] = spec.split(":");
  if (rest.length > 0 || !players.includes(seat))
    throw new ComputerSettingsError(
      `--computer takes a player of the campaign and, after a colon, a level: ${players.map((p) => `${p}[:LEVEL]`).join(" or ")}; "${spec}" is not one`,
    );
  if (!(COMPUTER_LEVELS as readonly string[]).includes(level))
    throw new ComputerSettingsError(`"${level}" is no level of the computer: one of ${COMPUTER_LEVELS.join(", ")}`);
  if (!Number.isInteger(thinkMs) || thinkMs < 1 || thinkMs > MAX_THINK_MS)
    throw new ComputerSettingsError(
      `--think takes the milliseconds the computer may think per decision: a whole number from 1 to ${MAX_THINK_MS}`,
    );
  return { seat, level: level as ComputerLevel, thinkMs };
}

/** Refuses a set-up the computer cannot play: one under fog of war (A2). */
export function checkComputerSetup(setup: Pick<SetupFile, "options">): void {
  if (advancedRule(setup.options ?? {}, "fogOfWar"))
    throw new ComputerSettingsError(
      "the computer plays campaigns without fog of war (A2): it judges the enemy by the strengths and rosters fog hides (docs/computer.md)",
    );
}

/**
 * The folder of the computer's files beside a log folder: its settings per campaign (`<campaign>.json`) and its own
 * secrets (`<campaign>/<seat>.json`, as a player's secrets folder holds them), apart from the human's.
 */
export function computerDir(db: string): string {
  return join(dirname(db), `${basename(db)}-computer`);
}

const settingsPath = (dir: string, campaign: string) => join(dir, `${campaign}.json`);

/** Writes the computer's settings for a campaign, durably, before any of its steps. */
export async function writeComputerSettings(dir: string, campaign: string, settings: ComputerSettings): Promise<void> {
  await mkdir(dir, { recursive: true });
  await replaceDurably(dir, settingsPath(dir, campaign), computerSettingsText(settings));
}

/** Removes a campaign's computer settings (kept for a campaign the log then refused to create). */
export async function removeComputerSettings(dir: string, campaign: string): Promise<void> {
  await rm(settingsPath(dir, campaign), { force: true });
}

/** The computer's settings for a campaign, or undefined where the computer plays no seat of it. */
export async function readComputerSettings(dir: string, campaign: string): Promise<ComputerSettings | undefined> {
  let text: string;
  try {
    text = await readFile(settingsPath(dir, campaign), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return settingsFromText(text, settingsPath(dir, campaign));
}

/** The text of a campaign's computer settings: JSON, as a file or the database keeps them. */
export function computerSettingsText(settings: ComputerSettings): string {
  return `${JSON.stringify(settings, null, 2)}\n`;
}

/** The computer's settings from their text, kept at `where` (named in the error when they name no seat and level). */
export function settingsFromText(text: string, where: string): ComputerSettings {
  const read = JSON.parse(text) as Partial<ComputerSettings>;
  if (typeof read.seat !== "string" || typeof read.level !== "string")
    throw new ComputerSettingsError(`${where} names no seat and level of the computer`);
  return parseComputer(`${read.seat}:${read.level}`, [read.seat], read.thinkMs ?? DEFAULT_THINK_MS);
}
