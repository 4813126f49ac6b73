/**
 * POST /campaigns's body as the start screen makes it (docs/web.md, "Play against the computer"): a set-up, the
 * seat the computer plays with its level and thinking time, and how battles are resolved (B4).
 */

/** A set-up as POST /campaigns takes it: the set-up file's JSON, its catalogue in it. */
export interface OfferedSetup {
  campaign: string;
  name: string;
  players: Array<{ id: string; name: string }>;
  options?: Record<string, unknown>;
  catalogue: unknown;
  [field: string]: unknown;
}

export type BattleChoice = "table" | "model";

export interface CampaignChoices {
  campaign: string;
  /** The seat the computer plays. */
  computer: string;
  level: string;
  thinkMs: number;
  battles: BattleChoice;
}

/** The body of POST /campaigns for a set-up and the choices made on the start screen. */
export function creationBody(setup: OfferedSetup, choices: CampaignChoices): Record<string, unknown> {
  return {
    ...setup,
    campaign: choices.campaign,
    options: { ...setup.options, battles: choices.battles },
    computer: { seat: choices.computer, level: choices.level, thinkMs: choices.thinkMs },
  };
}

/** The set-up's campaign id, or the first `<id>-N` no campaign of the server has (a server holds each id once). */
export function freeCampaignId(id: string, taken: readonly string[]): string {
  if (!taken.includes(id)) return id;
  for (let n = 2; n < taken.length + 2; n++) if (!taken.includes(`${id}-${n}`)) return `${id}-${n}`;
  return `${id}-${taken.length + 2}`;
}

/**
 * A set-up file of the player's own, read as POST /campaigns takes it, or why not: JSON with its players and its
 * catalogue in it (the server reads no file a request names).
 */
export function ownSetup(text: string): OfferedSetup {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`the set-up file is not JSON: ${(error as Error).message}`);
  }
  const setup = parsed as Partial<OfferedSetup> | null;
  if (typeof setup !== "object" || setup === null || Array.isArray(setup))
    throw new Error("the set-up file must hold one JSON object (docs/setup-file.md)");
  if (typeof setup.campaign !== "string" || !Array.isArray(setup.players))
    throw new Error('the set-up file must name its "campaign" and list its "players" (docs/setup-file.md)');
  if (typeof setup.catalogue !== "object" || setup.catalogue === null)
    throw new Error(
      'catalogue: the set-up file must hold the catalogue itself ("catalogue": {...}), not the name of a file: the server reads no file a request names',
    );
  return setup as OfferedSetup;
}
