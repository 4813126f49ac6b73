import { Option } from "commander";

/*
 * `--as PARTY` on the commands that only show a campaign (timeline, diff, audit): whose view they print, through the
 * same views as `state --as` and `log --as` (replays/as-seen.ts, src/views/view.ts, docs/views.md).
 */

export const viewAsOption = () =>
  new Option(
    "--as <party>",
    "show what this player may see: the other side's secrets hidden, no chain hashes (docs/views.md); host: the log as stored",
  );
