import { useState } from "preact/hooks";
import type { BattleResult } from "../../events/common.js";
import type { CampaignView } from "../views/view.js";
import type { Game, Verdict } from "./game.js";
import { RefusalNote } from "./refusal.js";
import { resultDifferences } from "./result-compare.js";
import { ResultFields, useResultEntry, type Battle } from "./result-entry.js";

/**
 * B4: the confirming side's own count of a reported battle, in the fields the reporting side used and filled in with
 * the figures reported, so that a count that agrees is one click; every figure where the two differ is said in words
 * beside it, for the confirming side to reject the result on.
 */
export function ConfirmForm({ game, view, battle }: { game: Game; view: CampaignView; battle: Battle }) {
  const reported: BattleResult = battle.report!.result;
  const entry = useResultEntry(reported);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const send = async (type: "ConfirmBattleResult" | "RejectBattleResult") =>
    setVerdict((await game.submit({ type, battle: battle.id })) ?? null);
  const differences = resultDifferences(reported, entry.result());
  const countId = `own-count-${battle.id}`;
  return (
    <form
      class="result-form"
      data-testid="confirm-form"
      aria-labelledby={countId}
      onSubmit={(event) => {
        event.preventDefault();
        void send("ConfirmBattleResult");
      }}
    >
      <p id={countId}>Your own count, filled in with the figures reported: change any figure your count differs on.</p>
      <ResultFields view={view} battle={battle} entry={entry} verdict={null} />
      <div role="status" data-testid={`count-differences-${battle.id}`}>
        {differences.length === 0 ? (
          <p>Your count agrees with the report.</p>
        ) : (
          <>
            <p>
              Your count differs from the report on {differences.length}{" "}
              {differences.length === 1 ? "figure" : "figures"}:
            </p>
            <ul>
              {differences.map((difference) => (
                <li key={difference.key} data-differs={difference.key}>
                  {difference.words}
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <button type="submit">Confirm the result</button>
      <button type="button" onClick={() => void send("RejectBattleResult")}>
        Reject it
      </button>
      <RefusalNote verdict={verdict} />
    </form>
  );
}
