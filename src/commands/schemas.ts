import { Type, type Static, type TObject } from "@sinclair/typebox";
import { Ajv, type ValidateFunction } from "ajv";
import { Actor, Catalogue, Force, Id, MapDefinition, Options, Player, Square } from "../../events/common.js";
import { describeAjvError } from "../../events/index.js";

/** Every command names who gives it and what it is. */
const command = <T extends string, P extends Record<string, import("@sinclair/typebox").TSchema>>(type: T, properties: P) =>
  Type.Object({ type: Type.Literal(type), actor: Actor, ...properties }, { additionalProperties: false });

export const CreateCampaign = command("CreateCampaign", {
  campaign: Id,
  name: Type.String({ minLength: 1, maxLength: 120 }),
  map: MapDefinition,
  players: Type.Array(Player, { minItems: 2, maxItems: 2 }),
  force: Force,
  options: Type.Optional(Options),
  catalogue: Catalogue,
});

export const RegisterArmy = command("RegisterArmy", {
  army: Id,
  name: Type.String({ minLength: 1, maxLength: 80 }),
  /** Formations from the catalogue, each with an id unique within the army; all start at full strength. */
  formations: Type.Array(Type.Object({ id: Id, formation: Id }, { additionalProperties: false }), { minItems: 1, maxItems: 200 }),
  commander: Type.Object({ formation: Id, unitType: Id }, { additionalProperties: false }),
});

export const PlaceHomeBase = command("PlaceHomeBase", { at: Square });

export const PlaceObjective = command("PlaceObjective", {
  /** Defaults to "<player>-com<n>". */
  objective: Type.Optional(Id),
  at: Square,
});

export const DeployArmy = command("DeployArmy", { army: Id, at: Square });

export const StartCampaign = command("StartCampaign", {});

export const COMMAND_SCHEMAS = {
  CreateCampaign,
  RegisterArmy,
  PlaceHomeBase,
  PlaceObjective,
  DeployArmy,
  StartCampaign,
} as const satisfies Record<string, TObject>;

export type CommandType = keyof typeof COMMAND_SCHEMAS;
export type Command = { [K in CommandType]: Static<(typeof COMMAND_SCHEMAS)[K]> }[CommandType];
export type CommandOf<T extends CommandType> = Extract<Command, { type: T }>;

const ajv = new Ajv({ strict: true });
const validators = Object.fromEntries(
  Object.entries(COMMAND_SCHEMAS).map(([type, schema]) => [type, ajv.compile(schema)]),
) as Record<CommandType, ValidateFunction>;

export type CommandCheck = { ok: true; command: Command } | { ok: false; field: string; message: string };

/** Schema-checks a command before any rule runs: a known type, and every field of the right shape. */
export function checkCommand(input: unknown): CommandCheck {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, field: "command", message: "must be a JSON object with \"type\" and \"actor\"" };
  }
  const type = (input as { type?: unknown }).type;
  if (typeof type !== "string") return { ok: false, field: "type", message: "is required: the command's name" };
  if (!Object.hasOwn(COMMAND_SCHEMAS, type)) {
    return { ok: false, field: "type", message: `unknown command type "${type}" (known: ${Object.keys(COMMAND_SCHEMAS).join(", ")})` };
  }
  const validate = validators[type as CommandType];
  if (!validate(input)) return { ok: false, ...describeAjvError(validate.errors, type) };
  return { ok: true, command: input as Command };
}
