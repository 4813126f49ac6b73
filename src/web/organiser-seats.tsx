import { useEffect, useState } from "preact/hooks";
import { HOST } from "../../events/common.js";
import type { Game } from "./game.js";

/** What a request of the organiser's answered: done (with its words) or why not. */
type Outcome = { ok: boolean; words: string } | null;

/**
 * One of the organiser's requests for the seats and webhooks (docs/server.md), with the page's session cookie; its
 * answer's body, or the server's words for why not.
 */
async function ask(method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) {
  const answer = await fetch(path, {
    method,
    headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const parsed = (await answer.json().catch(() => ({}))) as Record<string, unknown>;
  if (!answer.ok) throw new Error(String(parsed["message"] ?? `the server answered ${answer.status}`));
  return parsed;
}

const failed = (error: unknown): Outcome => ({ ok: false, words: (error as Error).message });

/**
 * The organiser's seats: a new invite link for a seat (a player who lost theirs, or whose invite was used), and the
 * revocation of every token and unused invite of a seat (a device lost).
 */
export function SeatsPanel({ game }: { game: Game }) {
  const view = game.view.value!;
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [link, setLink] = useState<{ seat: string; url: string } | null>(null);
  const base = `/campaigns/${encodeURIComponent(game.seat.campaign)}`;
  const seats = [...view.setup!.players.map((p) => ({ id: p.id, name: p.name })), { id: HOST, name: "the organiser" }];
  const invite = async (seat: string, name: string) => {
    try {
      const { invite } = await ask("POST", `${base}/invites`, { seat });
      setLink({ seat: name, url: `${location.origin}/join#${String(invite)}` });
      setOutcome({ ok: true, words: `A new invite for ${name}: send this link to them alone; it works once.` });
    } catch (error) {
      setOutcome(failed(error));
    }
  };
  const revoke = async (seat: string, name: string) => {
    if (!confirm(`Revoke every session and unused invite of ${name}? They will need a new invite to play.`)) return;
    try {
      const { revoked } = await ask("DELETE", `${base}/seats/${encodeURIComponent(seat)}`);
      setLink(null);
      setOutcome({ ok: true, words: `${name}: ${String(revoked)} sessions and invites revoked.` });
    } catch (error) {
      setOutcome(failed(error));
    }
  };
  return (
    <section class="seats" data-testid="seats" aria-labelledby="seats-heading">
      <h3 id="seats-heading">Seats and invites</h3>
      <table>
        <tbody>
          {seats.map((seat) => (
            <tr key={seat.id} data-seat={seat.id}>
              <th scope="row">{seat.name}</th>
              <td>
                {seat.id === game.seat.computer ? (
                  // The server issues no invite for it: its steps are the server's (docs/computer.md).
                  <span data-testid="computer-seat">played by the computer</span>
                ) : (
                  <>
                    <button onClick={() => void invite(seat.id, seat.name)}>New invite</button>{" "}
                    <button onClick={() => void revoke(seat.id, seat.name)}>Revoke</button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {outcome && (
        <p class={outcome.ok ? "done" : "refusal"} role={outcome.ok ? "status" : "alert"}>
          {outcome.words}
        </p>
      )}
      {link && (
        <p>
          <label>
            Invite link for {link.seat}{" "}
            <input readOnly value={link.url} data-testid="invite-link" onFocus={(e) => e.currentTarget.select()} />
          </label>
        </p>
      )}
    </section>
  );
}

interface Webhook {
  url: string;
  format: "json" | "discord" | "slack";
}

const FORMATS = { json: "JSON", discord: "Discord", slack: "Slack" } as const;

/**
 * The campaign's webhooks: a club's channel told when the campaign waits on someone, a result awaits confirmation or
 * a turn begins (docs/web.md).
 */
export function WebhooksPanel({ game }: { game: Game }) {
  const [hooks, setHooks] = useState<Webhook[] | null>(null);
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<Webhook["format"]>("discord");
  const [outcome, setOutcome] = useState<Outcome>(null);
  const path = `/campaigns/${encodeURIComponent(game.seat.campaign)}/webhooks`;
  useEffect(() => {
    ask("GET", path).then(
      (body) => setHooks(body["webhooks"] as Webhook[]),
      (error) => setOutcome(failed(error)),
    );
  }, [path]);
  const save = async (next: Webhook[], words: string) => {
    try {
      const body = await ask("PUT", path, { webhooks: next });
      setHooks(body["webhooks"] as Webhook[]);
      setOutcome({ ok: true, words });
      setUrl("");
    } catch (error) {
      setOutcome(failed(error));
    }
  };
  return (
    <section class="webhooks" data-testid="webhooks" aria-labelledby="webhooks-heading">
      <h3 id="webhooks-heading">Your club&#39;s channel (webhooks)</h3>
      <ul>
        {(hooks ?? []).map((hook) => (
          <li key={hook.url}>
            {FORMATS[hook.format]}: <code>{new URL(hook.url).host}</code>{" "}
            <button
              onClick={() =>
                void save(
                  hooks!.filter((h) => h !== hook),
                  "The webhook was removed.",
                )
              }
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save([...(hooks ?? []), { url: url.trim(), format }], "The webhook was added: the channel hears next.");
        }}
      >
        <label>
          Webhook URL{" "}
          <input name="url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>{" "}
        <label>
          Body{" "}
          <select name="format" value={format} onChange={(e) => setFormat(e.currentTarget.value as Webhook["format"])}>
            {Object.entries(FORMATS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>{" "}
        <button type="submit">Add the webhook</button>
      </form>
      {outcome && (
        <p class={outcome.ok ? "done" : "refusal"} role={outcome.ok ? "status" : "alert"}>
          {outcome.words}
        </p>
      )}
    </section>
  );
}
