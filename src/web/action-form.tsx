import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import type { Game, Verdict } from "./game.js";
import { FieldError, type Values } from "./fields.js";
import { RefusalNote, concerns } from "./refusal.js";

export type Choices = ReadonlyArray<{ value: string; label: string }>;

/** What a field drawn by its own control is given: its text, the form's, and how to change its text. */
export interface ControlProps {
  name: string;
  label: string;
  value: string;
  values: Values;
  set: (value: string) => void;
}

/**
 * One field of an action: its name in the command, its label, and the choices when it is a list (from what the page
 * knows: the roster, the catalogue, the map), which may follow the fields chosen before it (an army's formations).
 */
export interface FieldSpec {
  name: string;
  label: string;
  choices?: Choices | ((values: Values) => Choices);
  /** Several of the choices may be taken: the field's text is then their values, a comma between each. */
  multiple?: boolean;
  placeholder?: string;
  /** The input's type where it is not text (a date and time, a number). */
  input?: "datetime-local" | "number";
  /**
   * A control of its own (a square on the map, counts, a list of formations), its text the field's: called at each
   * render, it gives the same component each time, so that the control keeps its state and focus.
   */
  control?: (props: ControlProps) => ComponentChildren;
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
  // What the fields hold now, for a command that ends after the player began the next one: its end leaves them alone.
  const valuesNow = useRef(values);
  valuesNow.current = values;
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [done, setDone] = useState(false);
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
    setDone(false);
    const refusal = await game.submit({ type, ...command });
    // Typed on meanwhile: a refusal is among the notices, and what is typed stays.
    if (valuesNow.current !== values) return;
    setVerdict(refusal ?? null);
    if (!refusal) {
      setValues({});
      setDone(true);
    }
  };
  const set = (name: string, value: string) => {
    setDone(false);
    setValues((all) => ({ ...all, [name]: value }));
  };
  const choicesOf = (field: FieldSpec) =>
    typeof field.choices === "function" ? field.choices(values) : (field.choices ?? []);
  const named = fields.some((field) => concerns(verdict, field.name));
  return (
    <form class="action-form" data-action={type} onSubmit={submit}>
      <fieldset>
        <legend>{title}</legend>
        {fields.map((field) => (
          <div key={field.name}>
            {field.control ? (
              field.control({
                name: field.name,
                label: field.label,
                value: values[field.name] ?? "",
                values,
                set: (value) => set(field.name, value),
              })
            ) : field.multiple ? (
              <fieldset class="choices">
                <legend>{field.label}</legend>
                {choicesOf(field).length === 0 && <span>none to choose</span>}
                {choicesOf(field).map((choice) => {
                  const taken = (values[field.name] ?? "").split(", ").filter(Boolean);
                  return (
                    <label key={choice.value}>
                      <input
                        type="checkbox"
                        name={field.name}
                        value={choice.value}
                        checked={taken.includes(choice.value)}
                        onChange={(e) =>
                          set(
                            field.name,
                            (e.currentTarget.checked
                              ? [...taken, choice.value]
                              : taken.filter((value) => value !== choice.value)
                            ).join(", "),
                          )
                        }
                      />
                      {choice.label}
                    </label>
                  );
                })}
              </fieldset>
            ) : (
              <label>
                {field.label}{" "}
                {field.choices ? (
                  <select
                    name={field.name}
                    value={values[field.name] ?? ""}
                    onChange={(e) => set(field.name, e.currentTarget.value)}
                  >
                    <option value="">choose…</option>
                    {choicesOf(field).map((choice) => (
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
                    onInput={(e) => set(field.name, e.currentTarget.value)}
                  />
                )}
              </label>
            )}
            {concerns(verdict, field.name) && <RefusalNote verdict={verdict} />}
          </div>
        ))}
        <button type="submit">{title.replace(/^[A-Z][0-9]+: /, "")}</button>
        {!named && <RefusalNote verdict={verdict} />}
        {done && (
          <p class="done" role="status" data-testid="done">
            Done: {title.replace(/^[A-Z][0-9]+: /, "")}.
          </p>
        )}
      </fieldset>
    </form>
  );
}
