import type { ComponentChildren } from "preact";
import { useRef, useState } from "preact/hooks";
import type { Order, Square } from "../../events/common.js";
import { squareKey } from "../../projections/grid.js";
import type { ArmyState } from "../../projections/state.js";
import type { WaitItem } from "../rules/waiting-on.js";
import { ORDER_NAMES } from "../words/orders.js";
import type { Game, Verdict } from "./game.js";
import { MapPanel } from "./map-panel.js";
import { MapPick, type SquarePick } from "./map-pick.js";
import { RefusalNote } from "./refusal.js";
import { activatableArmies, isEngaged, reachable } from "./rules-view.js";
import { ScoutingPanel } from "./scouting-panel.js";

const ORDERS = Object.keys(ORDER_NAMES) as Order[];

/**
 * The map, and in the Action phase the seat's activation: click one of its armies, choose the order, click a square
 * the order reaches (highlighted from the engine's own move search), confirm. The page commits to the order and keeps
 * it secret; its reveal is sent by the page when a battle or the end of the phase makes it due.
 */
export function ActionPanel({ game, children }: { game: Game; children?: ComponentChildren }) {
  const view = game.view.value!;
  const player = game.player;
  const [chosen, setChosen] = useState<string | null>(null);
  // The army chosen now, for a command that ends after the player chose another: its end leaves that choice alone.
  const chosenNow = useRef(chosen);
  chosenNow.current = chosen;
  const [order, setOrder] = useState<Order | null>(null);
  const [path, setPath] = useState<Square[]>([]);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const [sending, setSending] = useState(false);
  // A square a form of the step pane asks for (End phase): while asked, the map offers those squares instead.
  const [pick, ask] = useState<SquarePick | null>(null);

  const armies = player ? activatableArmies(view, player) : [];
  const army: ArmyState | undefined = armies.find((a) => a.id === chosen);
  const pinned = army ? isEngaged(view, army.id) : false;
  const reach = army && order && !pinned ? reachable(view, army, order) : undefined;
  const paths = reach?.paths ?? new Map<string, Square[]>();

  const choose = (id: string | null) => {
    setChosen(id);
    setOrder(null);
    setPath([]);
    setVerdict(null);
  };
  // A square of a stack chosen again chooses its next army: each counter of a stack is reached by the keyboard too.
  const onSquare = (square: Square) => {
    const key = squareKey(square);
    if (pick) {
      if (pick.squares.has(key)) {
        ask(null);
        pick.choose(square);
      }
      return;
    }
    const there = armies.filter((a) => a.at && squareKey(a.at) === key);
    if (paths.has(key)) setPath(paths.get(key)!);
    else if (there.length > 0) choose(there[(there.findIndex((a) => a.id === chosen) + 1) % there.length]!.id);
  };
  const onArmy = (id: string, square: Square) => {
    if (pick) onSquare(square);
    else if (armies.some((a) => a.id === id) && !paths.has(squareKey(square))) choose(id);
    else onSquare(square);
  };
  const confirm = async () => {
    if (!army || !order) return;
    setSending(true);
    const refusal = await game.submit({ type: "ActivateArmy", army: army.id, order, path });
    setSending(false);
    // Chosen another army meanwhile: a refusal is among the notices, and the choice stays.
    if (chosenNow.current !== army.id) return;
    setVerdict(refusal ?? null);
    if (!refusal) choose(null);
  };

  return (
    <div class="board">
      <section class="map-pane" aria-label="The map">
        <MapPanel
          view={view}
          viewer={player}
          heldOrders={game.heldOrders.value}
          marks={
            pick
              ? { reach: pick.squares, reachWords: `may be chosen as ${pick.label}` }
              : {
                  reach: new Set(paths.keys()),
                  attacks: reach?.attacks ?? new Set(),
                  path,
                  ...(army?.at ? { chosen: army.at } : {}),
                }
          }
          onSquare={onSquare}
          onArmy={onArmy}
          label={
            pick
              ? `The map: choose ${pick.label} among the squares outlined`
              : armies.length > 0
                ? "The map: choose an army to activate, then the square to move to"
                : "The map"
          }
        />
      </section>
      <div class="step-pane">
        {view.paused && (
          <p class="paused" role="status" data-testid="paused">
            The organiser paused the campaign{view.paused.reason ? ` (${view.paused.reason})` : ""}: what you give is
            refused until it resumes (O1).
          </p>
        )}
        {player && view.phase === "action" && (
          <section class="orders" data-testid="orders" aria-label="Your orders">
            <FirstChoice game={game} />
            <Recommit game={game} />
            <StallClaim game={game} />
            <ScoutingPanel game={game} armies={armies.filter((a) => !isEngaged(view, a.id))} />
            {armies.length === 0 ? (
              <p>None of your armies is to be activated now.</p>
            ) : (
              <>
                <p>
                  Your armies to activate (click one on the map):{" "}
                  {armies.map((a) => (
                    <button
                      key={a.id}
                      class={a.id === chosen ? "selected" : ""}
                      data-army={a.id}
                      onClick={() => choose(a.id)}
                    >
                      {a.name}
                    </button>
                  ))}
                </p>
                {army && (
                  <fieldset>
                    <legend>
                      Order for {army.name}
                      {pinned ? " (attacked before its activation: it stays where it is, M3)" : ""}
                    </legend>
                    {ORDERS.map((name) => (
                      <label key={name}>
                        <input
                          type="radio"
                          name="order"
                          value={name}
                          checked={order === name}
                          onChange={() => {
                            setOrder(name);
                            setPath([]);
                          }}
                        />
                        {ORDER_NAMES[name]}
                      </label>
                    ))}
                    {order && paths.size > 0 && (
                      <p>
                        {path.length === 0
                          ? `Click a highlighted square to move there (${paths.size} in reach, ${reach!.attacks.size} to attack), or confirm to stay.`
                          : `Path: ${path.map(([x, y]) => `(${x},${y})`).join(" → ")}`}
                      </p>
                    )}
                    <button data-testid="confirm-order" disabled={!order || sending} onClick={confirm}>
                      Confirm the order
                    </button>
                    <RefusalNote verdict={verdict} />
                  </fieldset>
                )}
              </>
            )}
          </section>
        )}
        <MapPick.Provider value={{ pick, ask }}>{children}</MapPick.Provider>
      </div>
    </div>
  );
}

/**
 * T5 on a branch (docs/replays.md): this seat's orders committed on the main line and hidden at the fork are void here;
 * each is committed again, an order chosen afresh (the main line's is not carried over), with a salt of this browser's.
 */
function Recommit({ game }: { game: Game }) {
  const view = game.view.value!;
  const [choice, setChoice] = useState<Record<string, Order>>({});
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const voided = Object.values(view.turnState?.activations ?? {}).filter(
    (activation) => activation.voided && activation.player === game.player,
  );
  if (voided.length === 0) return null;
  const recommit = async (army: string) =>
    setVerdict((await game.submit({ type: "RecommitOrder", army, order: choice[army]! })) ?? null);
  return (
    <fieldset data-testid="recommit">
      <legend>Orders to give again on this branch</legend>
      <p>The fork left these orders with the main line: give each army its order on this branch.</p>
      {voided.map(({ army }) => (
        <p key={army}>
          {view.armies[army]?.name ?? army}:{" "}
          {ORDERS.map((name) => (
            <label key={name}>
              <input
                type="radio"
                name={`recommit-${army}`}
                value={name}
                checked={choice[army] === name}
                onChange={() => setChoice({ ...choice, [army]: name })}
              />
              {ORDER_NAMES[name]}
            </label>
          ))}{" "}
          <button disabled={!choice[army]} onClick={() => void recommit(army)}>
            Commit the order
          </button>
        </p>
      ))}
      <RefusalNote verdict={verdict} />
    </fieldset>
  );
}

/** T2: the winner of the initiative roll says who activates first. */
function FirstChoice({ game }: { game: Game }) {
  const view = game.view.value!;
  const turn = view.turnState;
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  if (!turn || turn.first !== null || turn.initiativeWinner !== game.player) return null;
  const choose = async (first: string) => setVerdict((await game.submit({ type: "ChooseFirst", first })) ?? null);
  return (
    <p data-testid="choose-first">
      You won the initiative: who activates first?{" "}
      {view.setup!.players.map((p) => (
        <button key={p.id} onClick={() => choose(p.id)}>
          {p.id === game.player ? "I do" : p.name}
        </button>
      ))}
      <RefusalNote verdict={verdict} />
    </p>
  );
}

/**
 * T5 stall: while the phase waits on an order or reveal of the other side's and this seat owes none, the seat may
 * claim the stall, after which the organiser may close the phase.
 */
function StallClaim({ game }: { game: Game }) {
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const parties = game.waiting.value?.parties ?? {};
  const stalling = (items: WaitItem[] = []) =>
    items.filter((item) => (item.what === "order" || item.what === "reveal") && item.battle !== undefined);
  const owed = Object.entries(parties).flatMap(([party, items]) => (party === game.player ? [] : stalling(items)));
  if (owed.length === 0 || stalling(parties[game.player!]).length > 0) return null;
  const claim = async () => setVerdict((await game.submit({ type: "ClaimStall" })) ?? null);
  return (
    <p data-testid="claim-stall">
      The phase waits on{" "}
      {owed.map((item) => `${game.view.value?.armies[item.army!]?.name ?? item.army}'s ${item.what}`).join(", ")}.{" "}
      <button onClick={claim}>Claim the stall (T5)</button>
      <RefusalNote verdict={verdict} />
    </p>
  );
}
