import { asNumber, type Values } from "./fields.js";
import { MAIN } from "./lines.js";

/**
 * The body of `POST /campaigns/:id/forecast` from the forecast form's fields: the runs, the turns to play on (empty:
 * to the end) and the seed (empty: the server's), for the line played, or for the main line against a branch. A
 * mistake names its field; the server checks the rest (the limits, the branch).
 */
export function forecastRequest(values: Values, line: string, against: string): Record<string, unknown> {
  const options = {
    runs: asNumber(values, "runs"),
    ...(values["turns"]?.trim() ? { turns: asNumber(values, "turns") } : {}),
    ...(values["seed"]?.trim() ? { seed: values["seed"].trim() } : {}),
  };
  if (against) return { ...options, compare: [MAIN, against] };
  return line === MAIN ? options : { ...options, branch: line };
}
