import { useState } from "preact/hooks";
import { redeemInvite, ServerConnection, type ServerErrorBody } from "../client/server.js";
import {
  creationBody,
  freeCampaignId,
  ownSetup,
  type BattleChoice,
  type CampaignChoices,
  type OfferedSetup,
} from "./new-campaign-request.js";

/** GET /setups: the server's set-ups, the computer's levels and the bounds of its thinking time. */
interface Offer {
  setups: Array<{ file: string; setup: OfferedSetup }>;
  computer: { levels: string[]; thinkMs: { default: number; max: number } };
}

/** What the operator's token opened: the server to create on, what it offers, the campaigns it already has. */
interface Opened {
  server: ServerConnection;
  offer: Offer;
  taken: string[];
}

/** A campaign made: its choices, and the invites of its people's seats. */
interface Created {
  setup: OfferedSetup;
  choices: CampaignChoices;
  invites: Record<string, string>;
}

const LEVEL_WORDS: Record<string, string> = {
  scripted: "scripted: the scripted commanders, which decide at once",
  searching: "searching: plays each choice on by short forecasts from its own view, and takes the best",
};

const BATTLE_WORDS: Array<[BattleChoice, string]> = [
  ["table", "fought on the table: you report each result, the computer confirms or rejects it"],
  ["model", "resolved by the battle model, from the turn's dice"],
];

/** One choice among a few, as radio buttons under their legend. */
function Choices(props: {
  legend: string;
  name: string;
  chosen: string;
  choices: Array<[value: string, words: string]>;
  onChoose: (value: string) => void;
}) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.choices.map(([value, words]) => (
        <label key={value}>
          <input
            type="radio"
            name={props.name}
            value={value}
            checked={value === props.chosen}
            onChange={() => props.onChoose(value)}
          />{" "}
          {words}
        </label>
      ))}
    </fieldset>
  );
}

const nameOf = (setup: OfferedSetup, player: string) => setup.players.find((p) => p.id === player)?.name ?? player;

/** Why the server refused a request, in its own words, naming the field where it names one. */
function refusalWords(status: number, body: unknown): string {
  const { message, field } = (body ?? {}) as ServerErrorBody;
  const words = message ?? `the server answered ${status}`;
  return field && !words.startsWith(`${field}:`) ? `${field}: ${words}` : words;
}

/**
 * The start screen (`/new`, docs/web.md): whoever holds the server's operator token, which alone creates campaigns,
 * chooses a set-up, the computer's side, its level and thinking time, and how battles are resolved; the page creates
 * the campaign and opens the human's seat. The token is kept in this page's memory only, sent as a bearer on these
 * requests, never stored.
 */
export function NewCampaign() {
  const [opened, setOpened] = useState<Opened | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <main class="new-campaign">
      <h1>Play against the computer</h1>
      {!opened ? (
        <OperatorToken onOpened={setOpened} />
      ) : !created ? (
        <CreationForm opened={opened} onCreated={setCreated} />
      ) : (
        <CampaignCreated created={created} />
      )}
    </main>
  );
}

/** The operator's token, checked against the server before anything else is asked. */
function OperatorToken({ onOpened }: { onOpened: (opened: Opened) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const open = async (token: string) => {
    const server = new ServerConnection(location.origin, token);
    const campaigns = await server.send("GET", "/campaigns");
    if (campaigns.status === 401)
      return setProblem(
        "The server does not know this token: give the operator token `epicwar serve` printed on its first start (ewt_..., kept in its -server folder's invites.txt).",
      );
    if (campaigns.status !== 200) return setProblem(refusalWords(campaigns.status, campaigns.body));
    const listed = (campaigns.body as { campaigns: Array<{ id: string; seat: string | null }> }).campaigns;
    if (listed.some((entry) => entry.seat !== null))
      return setProblem("This is a seat's token, not the operator's: only the operator token creates campaigns.");
    const offer = await server.send("GET", "/setups");
    if (offer.status !== 200) return setProblem(refusalWords(offer.status, offer.body));
    onOpened({ server, offer: offer.body as Offer, taken: listed.map((entry) => entry.id) });
  };
  return (
    <form
      data-testid="operator-token"
      onSubmit={(event) => {
        event.preventDefault();
        const token = new FormData(event.currentTarget).get("token");
        open(String(token ?? "").trim()).catch((error: Error) => setProblem(error.message));
      }}
    >
      <p>
        Creating a campaign takes the server&#39;s operator token. The page keeps it for this screen only and stores it
        nowhere.
      </p>
      <label>
        The operator token <input type="password" name="token" autocomplete="off" required />
      </label>{" "}
      <button type="submit">Continue</button>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The set-up, the computer's side, level and thinking time, and the battles: then POST /campaigns. */
function CreationForm({ opened, onCreated }: { opened: Opened; onCreated: (created: Created) => void }) {
  const { server, offer, taken } = opened;
  const [setupFile, setSetupFile] = useState(offer.setups[0]?.file ?? "own");
  const [own, setOwn] = useState<OfferedSetup | null>(null);
  const setup = setupFile === "own" ? own : offer.setups.find((s) => s.file === setupFile)!.setup;
  const [campaign, setCampaign] = useState<string | null>(null);
  const [computer, setComputer] = useState<string | null>(null);
  const [level, setLevel] = useState(offer.computer.levels[0]!);
  const [thinkMs, setThinkMs] = useState(offer.computer.thinkMs.default);
  const [battles, setBattles] = useState<BattleChoice>("table");
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // Until the player picks them, the set-up's own: its id (or the next free one) and its last player for the computer.
  const campaignId = campaign ?? (setup ? freeCampaignId(setup.campaign, taken) : "");
  const computerSeat = setup?.players.some((p) => p.id === computer) ? computer! : setup?.players.at(-1)?.id;

  const create = async () => {
    if (!setup || !computerSeat) return setProblem("Choose a set-up first.");
    const choices: CampaignChoices = { campaign: campaignId, computer: computerSeat, level, thinkMs, battles };
    const answer = await server.send("POST", "/campaigns", creationBody(setup, choices));
    if (answer.status !== 201) return setProblem(refusalWords(answer.status, answer.body));
    onCreated({ setup, choices, invites: (answer.body as { invites: Record<string, string> }).invites });
  };
  return (
    <form
      data-testid="new-campaign"
      onSubmit={(event) => {
        event.preventDefault();
        setProblem(null);
        setSending(true);
        create()
          .catch((error: Error) => setProblem(error.message))
          .finally(() => setSending(false));
      }}
    >
      <label>
        The set-up{" "}
        <select
          name="setup"
          value={setupFile}
          onChange={(e) => (setSetupFile(e.currentTarget.value), setCampaign(null))}
        >
          {offer.setups.map(({ file, setup: offered }) => (
            <option key={file} value={file}>
              {offered.name}
            </option>
          ))}
          <option value="own">A set-up file of your own…</option>
        </select>
      </label>
      {setupFile === "own" && (
        <label>
          Your set-up file (JSON, its catalogue in it){" "}
          <input
            type="file"
            name="setup-file"
            accept=".json,application/json"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              setOwn(null);
              setCampaign(null);
              void file
                ?.text()
                .then((text) => (setOwn(ownSetup(text)), setProblem(null)))
                .catch((error: Error) => setProblem(`${file.name}: ${error.message}`));
            }}
          />
        </label>
      )}
      {setup && (
        <>
          <label>
            The campaign&#39;s id{" "}
            <input name="campaign" value={campaignId} required onInput={(e) => setCampaign(e.currentTarget.value)} />
          </label>
          <Choices
            legend="The computer plays"
            name="computer"
            chosen={computerSeat!}
            choices={setup.players.map((player) => [player.id, player.name])}
            onChoose={setComputer}
          />
          <Choices
            legend="Its level"
            name="level"
            chosen={level}
            choices={offer.computer.levels.map((each) => [each, LEVEL_WORDS[each] ?? each])}
            onChoose={setLevel}
          />
          <label>
            Its thinking time per decision, in milliseconds (the searching level&#39;s){" "}
            <input
              type="number"
              name="thinkMs"
              min={1}
              max={offer.computer.thinkMs.max}
              value={thinkMs}
              required
              onInput={(e) => setThinkMs(Number(e.currentTarget.value))}
            />
          </label>
          <Choices
            legend="Battles (B4)"
            name="battles"
            chosen={battles}
            choices={BATTLE_WORDS}
            onChoose={(choice) => setBattles(choice as BattleChoice)}
          />
        </>
      )}
      <button type="submit" disabled={sending}>
        Create the campaign
      </button>
      {problem && (
        <p class="problem" role="alert" data-testid="creation-problem">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The campaign made: the organiser's link, to keep, and the human's seat to open. */
function CampaignCreated({ created }: { created: Created }) {
  const { setup, choices, invites } = created;
  const [problem, setProblem] = useState<string | null>(null);
  const human = setup.players.find((p) => p.id !== choices.computer)!;
  const play = async () => {
    await redeemInvite(location.origin, invites[human.id]!);
    location.replace("/");
  };
  return (
    <section data-testid="created">
      <p>
        Campaign {choices.campaign} created: you play {human.name}; the computer plays {nameOf(setup, choices.computer)}{" "}
        at the {choices.level} level ({choices.thinkMs} ms a decision); battles{" "}
        {choices.battles === "model" ? "resolved by the battle model" : "fought on the table"}.
      </p>
      {invites["host"] && (
        <p>
          The organiser&#39;s invite link (to pause, set deadlines or make what-if branches from another browser; it
          works once): <code data-testid="organiser-link">{`${location.origin}/join#${invites["host"]}`}</code>
        </p>
      )}
      <button onClick={() => void play().catch((error: Error) => setProblem(error.message))}>
        Play as {human.name}
      </button>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
