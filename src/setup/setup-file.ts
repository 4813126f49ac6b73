import { Type, type Static } from "@sinclair/typebox";
import { Ajv, type ValidateFunction } from "ajv";
import { campaignTerms, Catalogue, FormationEntry, Id, IdRecord, Options, Square } from "../../events/common.js";
import { HOST } from "../../events/common.js";
import { describeAjvError } from "../../events/index.js";
import type { Command } from "../engine/command-schemas.js";

/**
 * A campaign set-up file (docs/setup-file.md): everything agreed before turn 1, in one JSON document.
 * `catalogue` is the catalogue itself or the path of a catalogue file relative to the set-up file.
 */
export const SetupFile = Type.Object(
  {
    ...campaignTerms,
    options: Type.Optional(Options),
    catalogue: Type.Union([Catalogue, Type.String({ minLength: 1 })]),
    homeBases: Type.Optional(IdRecord(Square)),
    objectives: Type.Optional(
      Type.Array(Type.Object({ id: Type.Optional(Id), placedBy: Id, at: Square }, { additionalProperties: false })),
    ),
    armies: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Id,
            player: Id,
            name: Type.String({ minLength: 1, maxLength: 80 }),
            formations: Type.Array(FormationEntry, {
              minItems: 1,
            }),
            commander: Type.Object({ formation: Id, unitType: Id }, { additionalProperties: false }),
            at: Type.Optional(Square),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    /** Start turn 1 once everything above is placed (default true). */
    start: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type SetupFile = Static<typeof SetupFile>;

/** Compiled when a setup file is first checked: most CLI commands never read one. */
let validate: ValidateFunction | undefined;

export type SetupCheck = { ok: true; setup: SetupFile } | { ok: false; field: string; message: string };

export function checkSetupFile(input: unknown): SetupCheck {
  validate ??= new Ajv({ strict: true, verbose: true }).compile(SetupFile);
  if (!validate(input)) return { ok: false, ...describeAjvError(validate.errors, "") };
  return { ok: true, setup: input as SetupFile };
}

/** One set-up command and the part of the set-up file it came from, to name it in errors. */
export interface SetupStep {
  source: string;
  command: Command;
}

/** The commands a set-up file stands for, in the order the rules need them. `catalogue` must be resolved already. */
export function setupCommands(setup: SetupFile & { catalogue: Catalogue }): SetupStep[] {
  const steps: SetupStep[] = [
    {
      source: "setup",
      command: {
        type: "CreateCampaign",
        actor: HOST,
        campaign: setup.campaign,
        name: setup.name,
        map: setup.map,
        players: setup.players,
        force: setup.force,
        options: setup.options ?? {},
        catalogue: setup.catalogue,
      },
    },
  ];
  for (const [player, at] of Object.entries(setup.homeBases ?? {})) {
    steps.push({ source: `homeBases.${player}`, command: { type: "PlaceHomeBase", actor: player, at } });
  }
  (setup.objectives ?? []).forEach((objective, i) => {
    steps.push({
      source: `objectives[${i}]`,
      command: {
        type: "PlaceObjective",
        actor: objective.placedBy,
        at: objective.at,
        ...(objective.id ? { objective: objective.id } : {}),
      },
    });
  });
  (setup.armies ?? []).forEach((army, i) => {
    const source = `armies[${i}]`;
    steps.push({
      source,
      command: {
        type: "RegisterArmy",
        actor: army.player,
        army: army.id,
        name: army.name,
        formations: army.formations,
        commander: army.commander,
      },
    });
    if (army.at)
      steps.push({
        source: `${source}.at`,
        command: { type: "DeployArmy", actor: army.player, army: army.id, at: army.at },
      });
  });
  if (setup.start ?? true) steps.push({ source: "start", command: { type: "StartCampaign", actor: HOST } });
  return steps;
}
