import { useState } from "preact/hooks";
import type { TitanDamage } from "../../events/common.js";
import { advancedRule } from "../../projections/advanced.js";
import type { ArmyState } from "../../projections/state.js";
import type { CampaignView, ViewedEntry } from "../views/view.js";
import { ActionForm, type FieldSpec } from "./action-form.js";
import { asCommander, asEntries, asEntry, asList, asNumber, asSquare, asWeapons, type Values } from "./fields.js";
import type { Game, Verdict } from "./game.js";
import { countsControl, formationsControl, freshId, newFormations, squareControl } from "./pick-fields.js";
import { RefusalNote } from "./refusal.js";
import { defenceSquares, newArmySquares } from "./rules-view.js";

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
  // E5: the chosen army's companies with units, which a support, special or titan formation is attached to.
  const companiesOf = (values: Values) =>
    (chosen(values)?.formations ?? [])
      .filter(
        (f) => setup.catalogue.formations[f.formation]?.kind === "company" && Object.values(f.units).some((n) => n > 0),
      )
      .map((f) => ({ value: f.id, label: `${f.id} (${setup.catalogue.formations[f.formation]!.name})` }));
  const unitName = (unit: string) => setup.catalogue.unitTypes[unit]?.name ?? unit;
  const commanders = (values: Values) =>
    (chosen(values)?.formations ?? []).flatMap((f) =>
      Object.keys(f.units).map((unit) => ({ value: `${f.id}:${unit}`, label: `${unitName(unit)} of ${f.id}` })),
    );
  const catalogue = Object.entries(setup.catalogue.formations).map(([key, formation]) => ({
    value: key,
    label: `${formation.name} (${formation.points.toLocaleString("en")} pts)`,
    company: formation.kind === "company",
  }));
  // New formations' ids: the catalogue's key and the turn, made unique among the army's.
  const newId = (taken: readonly string[]) => (_values: Values, formation: string, listed: readonly string[]) =>
    freshId(`${formation}-t${view.turn}`, [...taken, ...listed]);
  // E6d: what the Reserves hold at full strength, as many times as they hold it.
  const reserves = (ledger?.reserves ?? {}) as Record<string, number>;
  const inReserves = Object.entries(setup.catalogue.formations).flatMap(([key, formation]) => {
    const times = Math.min(
      ...Object.entries(formation.units).map(([unit, n]) => Math.floor((reserves[unit] ?? 0) / n)),
    );
    return times > 0
      ? [
          {
            value: key,
            label: `${formation.name} (${formation.points.toLocaleString("en")} pts; the Reserves hold ${times})`,
          },
        ]
      : [];
  });
  // A8: the seat's titans that carry damage, in its armies and in its Reserves.
  const damagedArmies = armies.filter((army) => Object.keys(army.titanDamage ?? {}).length > 0);
  const titanChoices = (values: Values) =>
    Object.entries(chosen(values)?.titanDamage ?? {}).map(([formation, damage]) => ({
      value: formation,
      label: `${formation} (${damageWords(damage)})`,
    }));
  const reserveTitans = Object.entries((ledger?.damagedTitans ?? {}) as Record<string, TitanDamage[]>).flatMap(
    ([unitType, titans]) =>
      titans.map((damage, i) => ({
        value: `${unitType}#${i}`,
        label: `${unitName(unitType)} ${i + 1} of ${titans.length} (${damageWords(damage)})`,
        damage,
      })),
  );
  const reserveTitan = (values: Values) => reserveTitans.find((t) => t.value === values["titan"]);
  const newArmyFields = (bought: boolean) => newArmy(view, player, bought, catalogue, newId([]), unitName);
  // E6: a formation of the catalogue to replace the one chosen, under a new id made from it and the turn.
  const replacements = (values: Values) =>
    Object.entries(setup.catalogue.formations).map(([key, formation]) => ({
      value: `${values["formation"] || "new"}-t${view.turn}:${key}`,
      label: `${formation.name} (${formation.points.toLocaleString("en")} pts)`,
    }));
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
              {
                name: "attachedTo",
                label: "Attached to (a support, special or titan formation)",
                choices: companiesOf,
              },
            ]}
            build={(v) => ({
              army: v["army"],
              formation: v["formation"],
              with: { ...asEntry(v, "with"), ...(v["attachedTo"] ? { attachedTo: v["attachedTo"] } : {}) },
            })}
          />
          <ActionForm
            game={game}
            title="E6: trade formations in the Reserves"
            type="TradeFormations"
            fields={[
              { name: "tradeIn", label: "Trade in (from the Reserves)", control: countsControl(() => inReserves) },
              { name: "buy", label: "Buy (from the catalogue)", control: countsControl(() => catalogue) },
            ]}
            build={(v) => ({ tradeIn: asList(v, "tradeIn"), buy: asList(v, "buy") })}
          />
          <ActionForm game={game} title="E6: raise an army" type="RaiseArmy" {...newArmyFields(false)} />
          {rule("warChest") && (
            <>
              <ActionForm
                game={game}
                title="A8: buy formations into an army"
                type="BuyFormations"
                fields={[
                  armyChoice,
                  {
                    name: "formations",
                    label: "Formations",
                    control: formationsControl({
                      catalogue,
                      companies: companiesOf,
                      newId: (v, formation, listed) =>
                        freshId(`${formation}-t${view.turn}`, [
                          ...(chosen(v)?.formations ?? []).map((f) => f.id),
                          ...listed,
                        ]),
                    }),
                  },
                ]}
                build={(v) => ({ army: v["army"], formations: asEntries(v, "formations") })}
              />
              <ActionForm game={game} title="A8: buy a new army" type="BuyArmy" {...newArmyFields(true)} />
              <ActionForm
                game={game}
                title="A8: buy defences"
                type="BuyDefences"
                fields={[
                  { name: "at", label: "Square", control: squareControl(() => defenceSquares(view, player)) },
                  { name: "points", label: "Points", input: "number" },
                ]}
                build={(v) => ({ at: asSquare(v, "at"), points: asNumber(v, "points") })}
              />
              <ActionForm
                game={game}
                title="A8: repair a titan"
                type="RepairTitan"
                fields={[
                  { ...armyChoice, choices: damagedArmies.map((army) => ({ value: army.id, label: army.name })) },
                  { name: "formation", label: "Titan", choices: titanChoices },
                  ...repairFields((v) => chosen(v)?.titanDamage?.[v["formation"] ?? ""]),
                ]}
                build={(v) => ({
                  army: v["army"],
                  formation: v["formation"],
                  ...repairs(v, chosen(v)?.titanDamage?.[v["formation"] ?? ""]),
                })}
              />
              <ActionForm
                game={game}
                title="A8: repair a titan in the Reserves"
                type="RepairReserveTitan"
                fields={[
                  { name: "titan", label: "Titan in the Reserves", choices: reserveTitans },
                  ...repairFields((v) => reserveTitan(v)?.damage),
                ]}
                build={(v) => ({
                  unitType: (v["titan"] ?? "").split("#")[0],
                  titan: Number((v["titan"] ?? "").split("#")[1]),
                  ...repairs(v, reserveTitan(v)?.damage),
                })}
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

/** A titan's damage in words: shields down and weapons destroyed. */
const damageWords = (damage: TitanDamage) =>
  [
    `${damage.shields} shields down`,
    ...(damage.weapons.length > 0 ? [`${damage.weapons.map((w) => w.name).join(", ")} destroyed`] : []),
  ].join("; ");

/** An army's id made from its name ("Fifth Vigil Army": fifth-vigil-army), new among the campaign's. */
function armyIdFrom(view: CampaignView, name: string): string {
  const base =
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 48) || `army-t${view.turn}`;
  return freshId(base, Object.keys(view.armies));
}

/**
 * E6a, A8: a new army's form, raised from the Reserves or bought with the war chest alike: its name typed, its
 * formations picked from the catalogue, its commander among their units, its square on the map; its id made from its
 * name.
 */
function newArmy(
  view: CampaignView,
  player: string,
  bought: boolean,
  catalogue: Parameters<typeof formationsControl>[0]["catalogue"],
  newId: Parameters<typeof formationsControl>[0]["newId"],
  unitName: (unit: string) => string,
): { fields: FieldSpec[]; build: (v: Values) => Record<string, unknown> } {
  const setup = view.setup!;
  const commanders = (v: Values) =>
    newFormations(v["formations"] ?? "").flatMap((f) =>
      Object.keys(setup.catalogue.formations[f.formation]?.units ?? {}).map((unit) => ({
        value: `${f.id}:${unit}`,
        label: `${unitName(unit)} of ${f.id}`,
      })),
    );
  return {
    fields: [
      { name: "name", label: "Name" },
      { name: "formations", label: "Formations", control: formationsControl({ catalogue, newId }) },
      { name: "commander", label: "Commander", choices: commanders },
      { name: "at", label: "Square", control: squareControl(() => newArmySquares(view, player, bought)) },
    ],
    build: (v) => ({
      army: armyIdFrom(view, v["name"] ?? ""),
      name: v["name"],
      formations: asEntries(v, "formations"),
      commander: asCommander(v, "commander"),
      at: asSquare(v, "at"),
    }),
  };
}

/**
 * A8: what a titan's repair restores, on the map or in the Reserves alike: shields, and destroyed weapons (of the
 * titan's damage, `damageOf` the form's titan) replaced like for like, or by another weapon typed with its chart cost.
 */
const repairFields = (damageOf: (v: Values) => TitanDamage | undefined): FieldSpec[] => [
  { name: "shields", label: "Shields to restore", input: "number", placeholder: "0" },
  {
    name: "weapons",
    label: "Weapons to replace like for like",
    multiple: true,
    choices: (v) => (damageOf(v)?.weapons ?? []).map((w, i) => ({ value: String(i), label: w.name })),
  },
  {
    name: "otherWeapons",
    label: "Or replaced by another weapon",
    placeholder: "weapon=replacement:points, …",
  },
];

const repairs = (v: Values, damage: TitanDamage | undefined) => ({
  shields: v["shields"] ? asNumber(v, "shields") : 0,
  weapons: [
    ...asList(v, "weapons").map((i) => ({ destroyed: damage?.weapons[Number(i)]?.name ?? "" })),
    ...asWeapons(v, "otherWeapons"),
  ],
});
