import { useState } from "preact/hooks";
import { downloadFile } from "./download.js";
import type { Game } from "./game.js";
import { parseSecretsFile } from "./secrets-file.js";

/**
 * The player's secrets file (its orders, salts and dice seeds), kept in this browser: exported in the CLI's format
 * (docs/secrets.md) to move to another browser or to the CLI, and imported from either.
 */
export function SecretsPanel({ game }: { game: Game }) {
  const [note, setNote] = useState<string | null>(null);
  const player = game.player;
  if (!player) return null;
  const download = async () => {
    downloadFile(`${player}.json`, await game.secrets.exportFile(player));
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    try {
      await game.secrets.importFile(player, parseSecretsFile(await file.text()));
      setNote(`Imported ${file.name}.`);
      await game.refresh();
    } catch (error) {
      setNote(`Not imported: ${(error as Error).message}`);
    }
  };
  return (
    <section class="secrets">
      <h2>Your secrets</h2>
      <p>
        Your orders, salts and dice seeds stay in this browser until their reveal. Keep a copy, or move them to another
        browser or to the command line (<code>--secrets DIR</code>, file{" "}
        <code>
          DIR/{game.seat.campaign}/{player}.json
        </code>
        ).
      </p>
      <button data-testid="export-secrets" onClick={download}>
        Export the secrets file
      </button>{" "}
      <label>
        Import a secrets file{" "}
        <input type="file" accept=".json,application/json" onChange={(e) => upload(e.currentTarget.files?.[0])} />
      </label>
      {note && <p role="status">{note}</p>}
    </section>
  );
}
