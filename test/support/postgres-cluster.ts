/**
 * A PostgreSQL cluster of the tests' own: made with initdb in a temporary folder, run as the `postgres` user when the
 * tests run as root (PostgreSQL refuses to), listening on 127.0.0.1 only, on a free port, and removed when stopped.
 * The binaries are Debian's (scripts/ensure-system-packages.sh installs the `postgresql` package when they are missing).
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** The folder of PostgreSQL's server binaries: Debian keeps them per major version, off PATH. */
function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] === undefined)
    throw new Error(
      "PostgreSQL's initdb is not installed: run sh scripts/ensure-system-packages.sh --slow (Debian's postgresql)",
    );
  return join(root, versions[0], "bin");
}

/** A TCP port free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const asRoot = userInfo().uid === 0;

/** Runs one of PostgreSQL's binaries, as the postgres user when this process is root. */
async function pgBinary(name: string, args: string[]): Promise<string> {
  const binary = join(binDir(), name);
  const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", binary, ...args]] : [binary, args];
  try {
    return (await run(command, argv, { cwd: tmpdir() })).stdout;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${name} failed: ${stderr ?? ""}${stdout ?? ""}`, { cause: error });
  }
}

/** A folder the postgres user owns (a cluster's data directory must be its own and private). */
async function ownedFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    await chown(dir, Number(stdout), Number(group));
  }
  await chmod(dir, 0o700);
  return dir;
}

export interface Cluster {
  port: number;
  /** The URL of the cluster's `postgres` database, as the superuser `epicwar`. */
  url: string;
  /** A URL of another database of the cluster. */
  urlOf(database: string): string;
  /** Shuts the server down (`pg_ctl stop --mode fast`: every connection ended) and keeps its data. */
  shutDown(): Promise<void>;
  /** Starts it again on the same data and port after shutDown. */
  startAgain(): Promise<void>;
  /** Promotes a standby to a primary that takes writes (`pg_ctl promote`), once it has. */
  promote(): Promise<void>;
  stop(): Promise<void>;
}

const SUPERUSER = "epicwar";

function urls(port: number): Pick<Cluster, "url" | "urlOf"> {
  const urlOf = (database: string) => `postgres://${SUPERUSER}@127.0.0.1:${port}/${database}`;
  return { url: urlOf("postgres"), urlOf };
}

async function start(dataDir: string, port: number, durable = false): Promise<Cluster> {
  // A test database needs no durability across a crash; a cluster for measuring (the bench) keeps PostgreSQL's own.
  const relaxed = durable ? "" : " -c fsync=off -c full_page_writes=off";
  const startServer = () =>
    pgBinary("pg_ctl", [
      "start",
      "--wait",
      "--pgdata",
      dataDir,
      "--log",
      join(dataDir, "server.log"),
      // Loopback only, the socket in the cluster's own folder.
      "-o",
      `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dataDir}${relaxed}`,
    ]);
  const shutDown = async () => {
    await pgBinary("pg_ctl", ["stop", "--wait", "--mode", "fast", "--pgdata", dataDir]);
  };
  await startServer();
  return {
    port,
    ...urls(port),
    shutDown,
    startAgain: async () => {
      await startServer();
    },
    promote: async () => {
      await pgBinary("pg_ctl", ["promote", "--wait", "--pgdata", dataDir]);
    },
    stop: async () => {
      await shutDown().catch(() => "");
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes a new cluster (trusting local connections on loopback) and starts it on a free port; without fsync unless
 * `durable`.
 */
export async function startCluster(options: { durable?: boolean } = {}): Promise<Cluster> {
  const dataDir = await ownedFolder("epicwar-pg-");
  await pgBinary("initdb", [
    "--pgdata",
    dataDir,
    "--username",
    SUPERUSER,
    "--auth",
    "trust",
    "--encoding",
    "UTF8",
    "--no-locale",
  ]);
  return start(dataDir, await freePort(), options.durable);
}

/**
 * A streaming replica of a running cluster: its data copied with `pg_basebackup -R` (which writes the settings that
 * make it follow the primary), started as a hot standby on another free port.
 */
export async function startReplica(primary: Cluster): Promise<Cluster> {
  const dataDir = await ownedFolder("epicwar-pg-replica-");
  await pgBinary("pg_basebackup", [
    "--pgdata",
    dataDir,
    "--host",
    "127.0.0.1",
    "--port",
    String(primary.port),
    "--username",
    SUPERUSER,
    "--write-recovery-conf",
    "--wal-method",
    "stream",
    "--checkpoint",
    "fast",
  ]);
  return start(dataDir, await freePort());
}

/** A cluster of a test's own (one it stops or fails over), with the database `database` made in it. */
export async function clusterWith(database: string): Promise<Cluster> {
  const cluster = await startCluster();
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  return cluster;
}
