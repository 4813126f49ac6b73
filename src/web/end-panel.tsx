import { useState } from "preact/hooks";
import { advancedRule } from "../../projections/advanced.js";
import type { ArmyState } from "../../projections/state.js";
import type { ViewedEntry } from "../views/view.js";
import { ActionForm, type FieldSpec } from "./action-form.js";
import { asCommander, asEntries, asEntry, asList, asNumber, asSquare, asWeapons, type Values } from "./fields.js";
import type { Game, Verdict } from "./game.js";
import { RefusalNote } from "./refusal.js";

const SUPPORT_KINDS = ["light-barrage", "medium-barrage", "heavy-barrage", "shock-and-awe", "blind", "haywire"];
const units = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([type, count]) => `${count} ${type}`)
    .join(", ") || "none";

/**
 * The End phase of the seat's side: its rosters, In Transit, Reserves and war chest, and the actions of the phase
 * (E5, E6; A6, A7, A8 when the campaign plays them), each refusal next to the field it names. Then "done".
 */
export function EndPanel({ game }: { game: Game }) {
  const view = game.view.value!;
  const player = game.player;
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  if (!player) return null;
  const setup = view.setup!;
  const ledger = view.ledgers[player];
  const armies = Object.values(view.armies).filter(
    (army) => army.player === player && army.status === "active",
  ) as Array<ViewedEntry<"armies"> & ArmyState>;
  const armyChoice: FieldSpec = {
    name: "army",
    label: "Army",
    choices: armies.map((army) => ({ value: army.id, label: army.name })),
  };
  const chosen = (values: Values) => armies.find((army) => army.id === values["army"]);
  // The chosen army's formations, and (A6) its units that may command, from its roster.
  const formations = (values: Values) =>
    (chosen(values)?.formations ?? []).map((f) => ({
      value: f.id,
      label: `${f.id} (${f.formation}: ${units(f.units)})`,
    }));
  const commanders = (values: Values) =>
    (chosen(values)?.formations ?? []).flatMap((f) =>
      Object.keys(f.units).map((unit) => ({ value: `${f.id}:${unit}`, label: `${unit} of ${f.id}` })),
    );
  // E6: a formation of the catalogue to replace the one chosen, under a new id made from it and the turn.
  const replacements = (values: Values) =>
    Object.entries(setup.catalogue.formations).map(([key, formation]) => ({
      value: `${values["formation"] || "new"}-t${view.turn}:${key}`,
      label: `${formation.name} (${formation.points.toLocaleString("en")} pts)`,
    }));
  // Squares the seat holds: where its armies stand.
  const squares = armies
    .filter((army) => army.at)
    .map((army) => ({ value: army.at!.join(","), label: `(${army.at!.join(",")}) ${army.name}` }));
  const done = view.turnState?.endPhaseDone.includes(player) ?? false;
  const rule = (name: Parameters<typeof advancedRule>[1]) => advancedRule(setup.options, name);
  return (
    <section class="end-phase" data-testid="end-phase">
      <h2>End phase</h2>
      <h3>Your armies</h3>
      <ul>
        {armies.map((army) => (
          <li key={army.id} data-roster={army.id}>
            <strong>{army.name}</strong> ({army.points.toLocaleString("en")} pts, {army.battles} battles):{" "}
            {army.formations.map((f) => `${f.id} (${f.formation}: ${units(f.units)})`).join("; ")}
          </li>
        ))}
      </ul>
      {ledger && (
        <p>
          Reserves: {units(ledger.reserves as Record<string, number>)}. In Transit:{" "}
          {(ledger.inTransit as Array<{ turn: number; units: Record<string, number> }>)
            .map((batch) => `${units(batch.units)} (since turn ${batch.turn})`)
            .join("; ") || "none"}
          {rule("warChest") ? `. War chest: ${ledger.warChest} pts` : ""}
          {rule("offTableSupport") ? `. Support fund: ${ledger.supportFund} pts` : ""}.
        </p>
      )}
      {done ? (
        <p data-testid="end-done">You are done with this End phase; waiting for the other side.</p>
      ) : (
        <>
          <ActionForm
            game={game}
            title="E5: break down formations"
            type="BreakDown"
            fields={[armyChoice, { name: "formations", label: "Formations", choices: formations, multiple: true }]}
            build={(v) => ({ army: v["army"], formations: asList(v, "formations") })}
          />
          <ActionForm
            game={game}
            title="E5: disband an army"
            type="DisbandArmy"
            fields={[armyChoice]}
            build={(v) => ({ army: v["army"] })}
          />
          <ActionForm
            game={game}
            title="E6: reinforce a formation"
            type="ReinforceFormation"
            fields={[armyChoice, { name: "formation", label: "Formation", choices: formations }]}
            build={(v) => ({ army: v["army"], formation: v["formation"] })}
          />
          <ActionForm
            game={game}
            title="E6: replace a wiped-out formation"
            type="ReplaceFormation"
            fields={[
              armyChoice,
              { name: "formation", label: "Formation wiped out", choices: formations },
              { name: "with", label: "Replaced by", choices: replacements },
            ]}
            build={(v) => ({ army: v["army"], formation: v["formation"], with: asEntry(v, "with") })}
          />
          <ActionForm
            game={game}
            title="E6: trade formations in the Reserves"
            type="TradeFormations"
            fields={[
              { name: "tradeIn", label: "Trade in (Reserves)", placeholder: "formation, …" },
              { name: "buy", label: "Buy (catalogue)", placeholder: "formation, …" },
            ]}
            build={(v) => ({ tradeIn: asList(v, "tradeIn"), buy: asList(v, "buy") })}
          />
          <ActionForm game={game} title="E6: raise an army" type="RaiseArmy" fields={NEW_ARMY_FIELDS} build={newArmy} />
          {rule("warChest") && (
            <>
              <ActionForm
                game={game}
                title="A8: buy formations into an army"
                type="BuyFormations"
                fields={[armyChoice, { name: "formations", label: "Formations", placeholder: "id:formation, …" }]}
                build={(v) => ({ army: v["army"], formations: asEntries(v, "formations") })}
              />
              <ActionForm
                game={game}
                title="A8: buy a new army"
                type="BuyArmy"
                fields={NEW_ARMY_FIELDS}
                build={newArmy}
              />
              <ActionForm
                game={game}
                title="A8: buy defences"
                type="BuyDefences"
                fields={[
                  { name: "at", label: "Square", choices: squares },
                  { name: "points", label: "Points" },
                ]}
                build={(v) => ({ at: asSquare(v, "at"), points: asNumber(v, "points") })}
              />
              <ActionForm
                game={game}
                title="A8: repair a titan"
                type="RepairTitan"
                fields={[
                  armyChoice,
                  { name: "formation", label: "Titan formation", choices: formations },
                  ...REPAIR_FIELDS,
                ]}
                build={(v) => ({ army: v["army"], formation: v["formation"], ...repairs(v) })}
              />
              <ActionForm
                game={game}
                title="A8: repair a titan in the Reserves"
                type="RepairReserveTitan"
                fields={[
                  { name: "unitType", label: "Titan type" },
                  { name: "titan", label: "Which (0: the most damaged)" },
                  ...REPAIR_FIELDS,
                ]}
                build={(v) => ({ unitType: v["unitType"], titan: asNumber(v, "titan"), ...repairs(v) })}
              />
            </>
          )}
          {rule("commanders") && (
            <ActionForm
              game={game}
              title="A6: appoint a commander"
              type="AppointCommander"
              fields={[armyChoice, { name: "commander", label: "Commander", choices: commanders }]}
              build={(v) => ({ army: v["army"], commander: asCommander(v, "commander") })}
            />
          )}
          {rule("offTableSupport") && (
            <ActionForm
              game={game}
              title="A7: buy off-table support"
              type="BuySupport"
              fields={[{ name: "kind", label: "Kind", choices: SUPPORT_KINDS.map((k) => ({ value: k, label: k })) }]}
              build={(v) => ({ kind: v["kind"] })}
            />
          )}
          <p>
            <button
              data-testid="finish-end-phase"
              onClick={async () => setVerdict((await game.submit({ type: "FinishEndPhase" })) ?? null)}
            >
              I am done with the End phase
            </button>
          </p>
          <RefusalNote verdict={verdict} />
        </>
      )}
    </section>
  );
}

const NEW_ARMY_FIELDS: readonly FieldSpec[] = [
  { name: "army", label: "New army id" },
  { name: "name", label: "Name" },
  { name: "formations", label: "Formations", placeholder: "id:formation, …" },
  { name: "commander", label: "Commander", placeholder: "formation:unitType" },
  { name: "at", label: "Square", placeholder: "x,y" },
];

/** E6a, A8: a new army's members, raised from the Reserves or bought with the war chest alike. */
const newArmy = (v: Values) => ({
  army: v["army"],
  name: v["name"],
  formations: asEntries(v, "formations"),
  commander: asCommander(v, "commander"),
  at: asSquare(v, "at"),
});

const REPAIR_FIELDS: readonly FieldSpec[] = [
  { name: "shields", label: "Shields", placeholder: "0" },
  { name: "weapons", label: "Weapons", placeholder: "weapon, or weapon=replacement:points" },
];

/** A8: what a titan's repair restores, on the map or in the Reserves alike. */
const repairs = (v: Values) => ({ shields: asNumber(v, "shields"), weapons: asWeapons(v, "weapons") });
