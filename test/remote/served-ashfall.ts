/** The campaign server on a fresh folder, listening on a port of its own: for tests of the players' clients. */
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { examplePath } from "../../src/setup/package-files.js";
import { Engine } from "../../src/engine/engine.js";
import { buildServer } from "../../src/server/app.js";
import { SeatStore } from "../../src/server/seat-store.js";
import { loadSetupFile } from "../../src/setup/setup-loader.js";
import { tempDir } from "../support/tmp.js";

/**
 * The campaign server on a fresh folder, listening on a port of its own, with Ashfall created by its operator;
 * `creation` adds to POST /campaigns's body (a computer seat, say); `webPage` is the built page's folder to serve.
 */
export async function serveAshfall(creation: object = {}, webPage?: string) {
  const served = await serveFresh(webPage);
  const { url, operatorToken } = served;
  const created = await fetch(`${url}/campaigns`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorToken}`, "content-type": "application/json" },
    body: JSON.stringify({ ...(await loadSetupFile(examplePath("ashfall.setup.json"))), ...creation }),
  });
  expect(created.status).toBe(201);
  const { campaign, invites } = (await created.json()) as { campaign: string; invites: Record<string, string> };
  return { ...served, campaign, invites };
}

/** The campaign server on a fresh folder with no campaign yet, listening on a port of its own. */
export async function serveFresh(webPage?: string) {
  const dir = await tempDir("epicwar-served-");
  const folders = [join(dir, "db"), join(dir, "db-secrets"), join(dir, "db-server")];
  const engine = await Engine.open(folders[0]!);
  const { seats, operatorToken } = await SeatStore.open(folders[2]!);
  const requestLog: string[] = [];
  const app = await buildServer({
    engine,
    seats,
    secrets: folders[1]!,
    log: (line) => void requestLog.push(line),
    ...(webPage ? { webPage } : {}),
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const close = async () => {
    await app.close();
    await engine.close();
  };
  return { folders, engine, operatorToken: operatorToken!, requestLog, url, close };
}
