/** `epicwar serve`: start, the operator's token and invites, the request log, a clean close, one server per folder. */
import { spawn } from "node:child_process";
import { get as httpGet, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Engine } from "../../src/engine/engine.js";
import { startServer, type RunningServer } from "../../src/server/serve.js";
import { examplePath } from "../../src/setup/package-files.js";
import { CLI, runInProcess } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";
import { CAMPAIGN, PlayerClient, startTestServer } from "./support.js";

/** A folder with Ashfall created by `epicwar new` (with `newOptions`), and the options a server on it takes. */
async function ashfallFolder(newOptions: string[] = []) {
  const dir = await tempDir("epicwar-serve-");
  const db = join(dir, "db");
  const made = await runInProcess(["new", "--db", db, "--setup", examplePath("ashfall.setup.json"), ...newOptions]);
  expect(made.code, made.stderr).toBe(0);
  return { db, host: "127.0.0.1", port: 0, secrets: join(dir, "db-secrets"), serverData: join(dir, "db-server") };
}

async function start(options: Awaited<ReturnType<typeof ashfallFolder>>, log: string[] = []) {
  const printed: string[] = [];
  const server = await startServer(
    { ...options, log: (line) => void log.push(line) },
    (line) => void printed.push(line),
  );
  return { server, printed };
}

const post = (server: RunningServer, path: string, body: unknown, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

describe("epicwar serve", () => {
  it("keeps the operator token once and one invite line per seat in a file only its owner reads, never printed off a terminal; logs requests without tokens", async () => {
    const options = await ashfallFolder();
    const log: string[] = [];
    const { server, printed } = await start(options, log);
    const file = join(options.serverData, "invites.txt");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const kept = (await readFile(file, "utf8")).split("\n");
    const operator = /^Operator token .*: (ewt_[A-Za-z0-9_-]+)$/m.exec(kept.join("\n"))?.[1];
    expect(operator).toBeDefined();
    const invites = kept.filter((line) => line.startsWith("ashfall "));
    // Stdout (a service's log, here) says where they are, and holds none of them.
    expect(printed.join("\n")).toContain(
      `Kept in ${file}, readable by you only: the operator token and 3 invite links`,
    );
    expect(printed.join("\n")).not.toMatch(/ewt_|#[A-Za-z0-9_-]{43}/);
    expect(invites.map((line) => line.split(" ")[1])).toEqual(["host", "concord", "horde"]);
    expect(invites[0]).toMatch(new RegExp(`^ashfall host ${server.url}/join#[A-Za-z0-9_-]{43}$`));
    const session = await post(server, "/session", { invite: invites[1]!.split("#")[1] });
    const { token } = (await session.json()) as { token: string };
    const state = await fetch(`${server.url}/campaigns/ashfall/state`, {
      headers: { cookie: `epicwar_session=${token}` },
    });
    expect(state.status).toBe(200);
    await server.close();

    const requests = log.filter((line) => JSON.parse(line).msg === "request");
    expect(requests.map((line) => JSON.parse(line).url)).toEqual(["/session", "/campaigns/ashfall/state"]);
    for (const secret of [operator!, token, invites[1]!.split("#")[1]!]) expect(log.join("\n")).not.toContain(secret);

    const { server: again, printed: second } = await start(options);
    expect(second.join("\n")).not.toMatch(/Operator token|^ashfall |Kept in/m);
    expect((await readFile(file, "utf8")).split("\n")).toEqual(kept);
    await again.close();
  });

  it("makes no operator token it could not keep: after a start that could not write the invites file, the next makes one", async () => {
    const options = await ashfallFolder();
    // The invites file's place taken by a folder: the first start cannot append to it.
    await mkdir(join(options.serverData, "invites.txt"), { recursive: true });
    await expect(start(options)).rejects.toThrow(/cannot keep the operator token and invites in .*: EISDIR/);
    await expect(stat(join(options.serverData, "seats.json"))).rejects.toMatchObject({ code: "ENOENT" });

    await rm(join(options.serverData, "invites.txt"), { recursive: true });
    const { server } = await start(options);
    const kept = await readFile(join(options.serverData, "invites.txt"), "utf8");
    const operator = /^Operator token .*: (ewt_[A-Za-z0-9_-]+)$/m.exec(kept)?.[1];
    const campaigns = await fetch(`${server.url}/campaigns`, { headers: { authorization: `Bearer ${operator}` } });
    expect(campaigns.status).toBe(200);
    await server.close();
  });

  it("prints the operator token and invites too when stdout is a terminal", async () => {
    const options = await ashfallFolder();
    const printed: string[] = [];
    const server = await startServer({ ...options, printSecrets: true }, (line) => void printed.push(line));
    await server.close();
    const kept = (await readFile(join(options.serverData, "invites.txt"), "utf8")).split("\n");
    const secrets = kept.filter((line) => /^(Operator token|ashfall )/.test(line));
    expect(secrets).toHaveLength(4);
    expect(printed).toEqual(expect.arrayContaining(secrets));
  });

  it("serves a campaign made by new --computer with its computer: no invite for its seat, which GET /campaigns names", async () => {
    const options = await ashfallFolder(["--computer", "horde"]);
    const { server } = await start(options);
    try {
      const kept = (await readFile(join(options.serverData, "invites.txt"), "utf8")).split("\n");
      expect(kept.filter((line) => line.startsWith("ashfall ")).map((line) => line.split(" ")[1])).toEqual([
        "host",
        "concord",
      ]);
      const operator = kept
        .find((line) => line.startsWith("Operator token"))!
        .split(": ")
        .at(-1)!;
      const listed = await fetch(`${server.url}/campaigns`, { headers: { authorization: `Bearer ${operator}` } });
      expect(await listed.json()).toEqual({ campaigns: [{ id: "ashfall", seat: null, computer: "horde" }] });
    } finally {
      await server.close();
    }
  });

  it("closes cleanly: a command in flight is answered and written, then the folder is closed for the next process", async () => {
    const server = await startTestServer();
    await server.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = server.app.server.address() as AddressInfo;
    // A feed is open too: it never ends by itself, so the server ends it as it closes.
    const feed = await new Promise<IncomingMessage>((resolve) =>
      httpGet(
        {
          host: "127.0.0.1",
          port,
          path: `/campaigns/${CAMPAIGN}/feed`,
          headers: { authorization: `Bearer ${server.tokens["horde"]}` },
        },
        resolve,
      ),
    );
    expect(feed.statusCode).toBe(200);
    const feedEnded = new Promise((resolve) => feed.resume().on("end", resolve));
    const body = await new PlayerClient(server, "concord").prepare({ type: "CommitSeed" });
    // The command is held inside the engine while the server is told to close.
    const execute = server.engine.execute.bind(server.engine);
    let entered = () => {};
    const inside = new Promise<void>((resolve) => (entered = resolve));
    server.engine.execute = async (campaign, inputs) => {
      entered();
      await new Promise((wait) => setTimeout(wait, 100));
      return execute(campaign, inputs);
    };
    const answer = fetch(`http://127.0.0.1:${port}/campaigns/${CAMPAIGN}/commands`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.tokens["concord"]}` },
      body: JSON.stringify(body),
    });
    await inside;
    const closing = server.app.close().then(() => server.engine.close());
    expect((await answer).status).toBe(200);
    await closing;
    await feedEnded;
    const engine = await Engine.open(join(server.dir, "db"), { createIfMissing: false });
    expect((await engine.store.head(CAMPAIGN)).seq).toBe(body.expectedSeq + 1);
    await engine.close();
    await rm(server.dir, { recursive: true, force: true });
  });

  it("refuses limits that are no whole number, a headers timeout longer than the request's, and half a TLS pair", async () => {
    const options = await ashfallFolder();
    const serve = (...more: string[]) => runInProcess(["serve", "--db", options.db, "--port", "0", ...more]);
    const refusals = [
      [
        ["--max-connections", "lots"],
        /--max-connections \(or \$EPICWAR_MAX_CONNECTIONS\) must be a whole number of connections, 1 or more, not "lots"/,
      ],
      [
        ["--pg-pool-size", "0"],
        /--pg-pool-size \(or \$EPICWAR_PG_POOL_SIZE\) must be a whole number of connections, 1 or more/,
      ],
      [["--headers-timeout", "40"], /--headers-timeout \(40 s\) must not be longer than --request-timeout \(30 s\)/],
      [["--tls-cert", "cert.pem"], /--tls-cert and --tls-key go together/],
      [["--tls-cert", "none.pem", "--tls-key", "none.pem"], /cannot read --tls-cert none\.pem/],
      [["--secrets-key-file", "none.key"], /--secrets-key-file seals the host's secrets in a PostgreSQL database/],
      [
        ["--store", "postgres://127.0.0.1:1/war", "--secrets-key-file", join(options.db, "none.key")],
        /cannot read the secrets key file .*none\.key/,
      ],
    ] as const;
    for (const [args, message] of refusals) {
      const refused = await serve(...args);
      expect(refused.code, args.join(" ")).toBe(1);
      expect(refused.stderr).toMatch(message);
    }
  });

  it("takes every option from its EPICWAR_ variable when the command line does not give it, and checks it as the option", async () => {
    const help = await runInProcess(["serve", "--help"], "", {
      env: {
        EPICWAR_PORT: "4242",
        EPICWAR_HOST: "0.0.0.0",
        EPICWAR_PG_STATEMENT_TIMEOUT: "5",
        EPICWAR_NO_HOST_CHORES: "1",
      },
    });
    expect(help.code, help.stderr).toBe(0);
    const flat = help.stdout.replace(/\s+/g, " ");
    for (const shown of [
      '--port <n> the port to listen on (0: any free one) [$EPICWAR_PORT] (default: "4242")',
      '(loopback unless told otherwise) [$EPICWAR_HOST] (default: "0.0.0.0")',
      '[$EPICWAR_PG_STATEMENT_TIMEOUT] (default: "5")',
      "the one with the host's secrets [$EPICWAR_NO_HOST_CHORES]",
    ])
      expect(flat).toContain(shown);
    const options = await ashfallFolder();
    for (const [env, message] of [
      [
        { EPICWAR_MAX_CONNECTIONS: "lots" },
        /--max-connections \(or \$EPICWAR_MAX_CONNECTIONS\) must be a whole number/,
      ],
      [{ EPICWAR_PORT: "http" }, /--port \(or \$EPICWAR_PORT\) must be a port number/],
      [{ EPICWAR_NO_HOST_CHORES: "maybe" }, /\$EPICWAR_NO_HOST_CHORES must be 1 or true/],
    ] as const) {
      const refused = await runInProcess(["serve", "--db", options.db], "", { env });
      expect(refused.code, JSON.stringify(env)).toBe(1);
      expect(refused.stderr).toMatch(message);
    }
  });

  it("refuses a second server on the same folder, and stops on SIGTERM with exit 0", async () => {
    const options = await ashfallFolder();
    const args = ["serve", "--db", options.db, "--port", "0", "--server-data", options.serverData];
    const first = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    first.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => first.on("exit", resolve));
    while (!/Serving/.test(out)) await new Promise((wait) => setTimeout(wait, 20));

    const second = await runInProcess(args);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/is in use by another epicwar process \(a server already serving it\?\)/);

    first.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(out).toMatch(/SIGTERM: finishing the requests in flight, then closing .*\nClosed\.\n$/);
  });
});
