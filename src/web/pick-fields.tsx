import type { ComponentChildren } from "preact";
import { useContext, useEffect, useId, useRef, useState } from "preact/hooks";
import type { Choices, ControlProps } from "./action-form.js";
import type { Values } from "./fields.js";
import { MapPick } from "./map-pick.js";

/*
 * Fields whose text the page makes from what the player picks, so that nothing it knows is typed: a square chosen on
 * the map ("x,y"), how many of each choice ("a, a, b"), a list of new formations ("id:formation@company, …").
 */

/** A field's control as the form draws it: a component of this module's, the same one at every render. */
type Control = (props: ControlProps) => ComponentChildren;

/** A square chosen on the map among those `squares` gives (by square key), by pointer or by keyboard. */
export const squareControl =
  (squares: (values: Values) => ReadonlySet<string>): Control =>
  (props) => <SquareControl {...props} squares={squares} />;

function SquareControl({
  name,
  label,
  value,
  values,
  set,
  squares,
}: ControlProps & { squares: (values: Values) => ReadonlySet<string> }) {
  const { pick, ask } = useContext(MapPick);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const asking = pick?.by === id;
  // A form gone (the phase over) stops asking.
  useEffect(() => () => ask((current) => (current?.by === id ? null : current)), [ask, id]);
  const start = () => {
    ask({
      by: id,
      label: label.toLowerCase(),
      squares: squares(values),
      choose: (square) => {
        set(square.join(","));
        button.current?.focus();
      },
    });
    // The keyboard goes to the map, where the arrows and Enter choose the square.
    document.querySelector<HTMLElement>("[data-testid=map-view] [role=grid]")?.focus();
  };
  return (
    <p class="square-control">
      {label}:{" "}
      <output name={name} data-testid={`square-${name}`}>
        {value ? `(${value})` : "none chosen"}
      </output>{" "}
      <button type="button" ref={button} aria-pressed={asking} onClick={asking ? () => ask(null) : start}>
        {asking ? "Stop choosing" : value ? "Choose another on the map" : "Choose on the map"}
      </button>
      {asking && <span> Choose one of the squares outlined on the map ({squares(values).size}).</span>}
    </p>
  );
}

/** How many of each choice, a number each, as the choices' values, each as many times as it is taken. */
export const countsControl =
  (choices: (values: Values) => Choices): Control =>
  (props) => <CountsControl {...props} choices={choices} />;

function CountsControl({
  name,
  label,
  value,
  values,
  set,
  choices,
}: ControlProps & { choices: (values: Values) => Choices }) {
  const taken = value.split(", ").filter(Boolean);
  const count = (choice: string) => taken.filter((t) => t === choice).length;
  const setCount = (choice: string, n: number) =>
    set(
      choices(values)
        .flatMap((c) => Array.from({ length: c.value === choice ? n : count(c.value) }, () => c.value))
        .join(", "),
    );
  const list = choices(values);
  return (
    <fieldset class="choices">
      <legend>{label}</legend>
      {list.length === 0 && <span>none to choose</span>}
      {list.map((choice) => (
        <label key={choice.value}>
          <input
            type="number"
            min={0}
            name={`${name}-${choice.value}`}
            value={count(choice.value)}
            onInput={(e) => setCount(choice.value, Math.max(0, Math.floor(Number(e.currentTarget.value) || 0)))}
          />{" "}
          {choice.label}
        </label>
      ))}
    </fieldset>
  );
}

/** A formation of the catalogue as a list of new formations offers it. */
export interface CatalogueChoice {
  value: string;
  label: string;
  /** A company, which support, special and titan formations are attached to. */
  company: boolean;
}

/** One new formation of the list: its id, its catalogue formation, and the company it is attached to, if named. */
export interface NewFormation {
  id: string;
  formation: string;
  attachedTo?: string;
}

/** The list's text read back: "id:formation@company, …" (fields.ts's asEntries reads it for the command). */
export function newFormations(text: string): NewFormation[] {
  return text
    .split(",")
    .map((entry) => /^\s*([^:@\s]+):([^:@\s]+)(?:@([^:@\s]+))?\s*$/.exec(entry))
    .filter((match) => match !== null)
    .map(([, id, formation, attachedTo]) => ({
      id: id!,
      formation: formation!,
      ...(attachedTo ? { attachedTo } : {}),
    }));
}

const written = (list: readonly NewFormation[]) =>
  list.map((f) => `${f.id}:${f.formation}${f.attachedTo ? `@${f.attachedTo}` : ""}`).join(", ");

/**
 * New formations picked from the catalogue, one "Add" at a time, each with an id the page makes (`newId`, from the
 * formation and the ids taken) and, for one that is not a company, the company it joins: one of the list's or one of
 * `companies` (an army's own), or the army's first (the engine's default, E5).
 */
export interface FormationsOptions {
  catalogue: readonly CatalogueChoice[];
  companies?: (values: Values) => Choices;
  newId: (values: Values, formation: string, taken: readonly string[]) => string;
}

export const formationsControl =
  (options: FormationsOptions): Control =>
  (props) => <FormationsControl {...props} options={options} />;

function FormationsControl({
  name,
  label,
  value,
  values,
  set,
  options,
}: ControlProps & { options: FormationsOptions }) {
  const { catalogue } = options;
  const nameOf = (formation: string) => catalogue.find((c) => c.value === formation)?.label ?? formation;
  const isCompany = (formation: string) => catalogue.find((c) => c.value === formation)?.company ?? false;
  const [adding, setAdding] = useState("");
  const id = useId();
  const list = newFormations(value);
  const companies: Choices = [
    ...list
      .filter((f) => isCompany(f.formation))
      .map((f) => ({ value: f.id, label: `${nameOf(f.formation)} (${f.id})` })),
    ...(options.companies?.(values) ?? []),
  ];
  const change = (index: number, attachedTo: string) =>
    set(
      written(
        list.map((f, i) =>
          i !== index ? f : { id: f.id, formation: f.formation, ...(attachedTo ? { attachedTo } : {}) },
        ),
      ),
    );
  return (
    <fieldset class="choices" data-field={name}>
      <legend>{label}</legend>
      {list.length === 0 ? (
        <p>None yet.</p>
      ) : (
        <ul>
          {list.map((formation, index) => (
            <li key={formation.id} data-formation={formation.id}>
              {nameOf(formation.formation)} ({formation.id}){" "}
              {!isCompany(formation.formation) && (
                <label>
                  attached to{" "}
                  <select value={formation.attachedTo ?? ""} onChange={(e) => change(index, e.currentTarget.value)}>
                    <option value="">the army's first company</option>
                    {companies.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </label>
              )}{" "}
              <button
                type="button"
                aria-label={`Remove ${nameOf(formation.formation)} (${formation.id})`}
                onClick={() => set(written(list.filter((_, i) => i !== index)))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <label for={`${id}-add`}>Formation to add</label>{" "}
      <select id={`${id}-add`} name={`${name}-add`} value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
        <option value="">choose…</option>
        {catalogue.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>{" "}
      <button
        type="button"
        disabled={!adding}
        onClick={() => {
          const taken = list.map((f) => f.id);
          set(written([...list, { id: options.newId(values, adding, taken), formation: adding }]));
        }}
      >
        Add
      </button>
    </fieldset>
  );
}

/** An id not among those taken: the base itself, else the base with "-2", "-3"… */
export function freshId(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  let n = 2;
  // Ends by n = taken.length + 2: no more ids are taken than that.
  while (taken.includes(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
