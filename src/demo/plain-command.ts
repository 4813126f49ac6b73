/** A command as the demo's players write it: orders in the clear, for the players' side to commit. */
export type PlainCommand = Record<string, unknown> & { actor: string; type: string };
