import { render } from "preact";
import { ServerConnection } from "../client/server.js";
import { App } from "./app.js";
import { Connection } from "./connection.js";
import { Lines } from "./lines.js";
import { NewCampaign } from "./new-campaign.js";
import { signIn } from "./session.js";
import "./style.css";

/** Signs in (an invite link, or the session cookie already held), then shows the seat's campaign. */
async function start(root: HTMLElement): Promise<void> {
  const connection = new Connection();
  const server = new ServerConnection(location.origin, undefined, connection.transport);
  try {
    const seat = await signIn(server);
    if (!seat) {
      render(
        <p class="problem">
          This browser is not signed in to a campaign: open your invite link (it looks like …/join#…). The organiser can
          issue a new one if yours was used. With the server&#39;s operator token,{" "}
          <a href="/new">start a campaign against the computer</a>.
        </p>,
        root,
      );
      return;
    }
    const lines = new Lines(server, seat, connection);
    await lines.play();
    render(<App lines={lines} />, root);
  } catch (error) {
    render(<p class="problem">{(error as Error).message}</p>, root);
  }
}

const root = document.getElementById("app")!;
// The static "Signing in…" is replaced by Preact's own: Preact renders beside what it did not make.
root.replaceChildren();
if (location.pathname === "/new") render(<NewCampaign />, root);
else {
  render(<p>Signing in…</p>, root);
  void start(root);
}
