import { useState } from "preact/hooks";
import type { Game, Verdict } from "./game.js";
import { FieldError, type Values } from "./fields.js";
import { RefusalNote, concerns } from "./refusal.js";

/** One field of an action: its name in the command, its label, and the choices when it is a list. */
export interface FieldSpec {
  name: string;
  label: string;
  choices?: ReadonlyArray<{ value: string; label: string }>;
  placeholder?: string;
  /** The input's type where it is not text (a date and time). */
  input?: "datetime-local";
}

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
                  type={field.input ?? "text"}
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
