import { useState } from "preact/hooks";
import type { Game, Verdict } from "./game.js";
import { RefusalNote, concerns } from "./refusal.js";

/** One field of an action: its name in the command, its label, and the choices when it is a list. */
export interface FieldSpec {
  name: string;
  label: string;
  choices?: ReadonlyArray<{ value: string; label: string }>;
  placeholder?: string;
}

type Values = Record<string, string>;

/** Reads a field's text as a square "x,y", a number, or a list "a, b": a mistake names the field. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export const asSquare = (values: Values, field: string): [number, number] => {
  const match = /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(values[field] ?? "");
  if (!match) throw new FieldError(field, `write the square as x,y (as 3,4), not "${values[field] ?? ""}"`);
  return [Number(match[1]), Number(match[2])];
};
export const asNumber = (values: Values, field: string): number => {
  const value = Number(values[field]);
  if (!Number.isInteger(value)) throw new FieldError(field, `write a whole number, not "${values[field] ?? ""}"`);
  return value;
};
export const asList = (values: Values, field: string): string[] =>
  (values[field] ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
/** Formations as "id:formation" (with "@company" to attach a support or special formation), comma-separated. */
export const asEntries = (values: Values, field: string) =>
  asList(values, field).map((entry) => {
    const match = /^([^:@\s]+):([^:@\s]+)(?:@([^:@\s]+))?$/.exec(entry);
    if (!match)
      throw new FieldError(field, `write each formation as id:formation (or id:formation@company), not "${entry}"`);
    return { id: match[1]!, formation: match[2]!, ...(match[3] ? { attachedTo: match[3] } : {}) };
  });

interface Props {
  game: Game;
  /** The rule and what the action does, as its heading. */
  title: string;
  type: string;
  fields: readonly FieldSpec[];
  /** The command's members from the fields' text. */
  build: (values: Values) => Record<string, unknown>;
}

/**
 * An action as a small form: the engine decides it, and a refusal is shown next to the field it names, or under the
 * form with its rule ID. The form keeps what was typed when refused.
 */
export function ActionForm({ game, title, type, fields, build }: Props) {
  const [values, setValues] = useState<Values>({});
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    let command: Record<string, unknown>;
    try {
      command = build(values);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      setVerdict({ kind: "field", field: error.field, message: error.message });
      return;
    }
    const refusal = await game.submit({ type, ...command });
    setVerdict(refusal ?? null);
    if (!refusal) setValues({});
  };
  const named = fields.some((field) => concerns(verdict, field.name));
  return (
    <form class="action-form" data-action={type} onSubmit={submit}>
      <fieldset>
        <legend>{title}</legend>
        {fields.map((field) => (
          <div key={field.name}>
            <label>
              {field.label}{" "}
              {field.choices ? (
                <select
                  name={field.name}
                  value={values[field.name] ?? ""}
                  onChange={(e) => setValues({ ...values, [field.name]: e.currentTarget.value })}
                >
                  <option value="">choose…</option>
                  {field.choices.map((choice) => (
                    <option key={choice.value} value={choice.value}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  name={field.name}
                  placeholder={field.placeholder}
                  value={values[field.name] ?? ""}
                  onInput={(e) => setValues({ ...values, [field.name]: e.currentTarget.value })}
                />
              )}
            </label>
            {concerns(verdict, field.name) && <RefusalNote verdict={verdict} />}
          </div>
        ))}
        <button type="submit">{title.replace(/^[A-Z][0-9]+: /, "")}</button>
        {!named && <RefusalNote verdict={verdict} />}
      </fieldset>
    </form>
  );
}
