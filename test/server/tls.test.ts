/**
 * HTTPS served directly (`--tls-cert`, `--tls-key`): a certificate made for the test (openssl) for 127.0.0.1, the
 * session cookie Secure, and the CLI's client trusting the certificate through NODE_EXTRA_CA_CERTS.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { readFile } from "node:fs/promises";
import { request } from "node:https";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { examplePath } from "../../src/setup/package-files.js";
import { startServer } from "../../src/server/serve.js";
import { CLI, runInProcess } from "../support/cli.js";
import { tempDir } from "../support/tmp.js";

/** A self-signed certificate for 127.0.0.1 and its key, made for this test in `dir`. */
function makeCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  execFileSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    key,
    "-out",
    cert,
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
  ]);
  return { cert, key };
}

/** POST over HTTPS, trusting only `ca`: the status, the Set-Cookie header and the body. */
function postTls(url: string, ca: Buffer, body: object) {
  return new Promise<{ status: number; cookie: string; body: string }>((resolve, reject) => {
    const req = request(url, { method: "POST", ca, headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, cookie: String(res.headers["set-cookie"]), body: text }),
      );
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("HTTPS", () => {
  it("serves over TLS with the certificate given; the cookie is Secure; the CLI joins over https with NODE_EXTRA_CA_CERTS", async () => {
    const dir = await tempDir("epicwar-tls-");
    const tls = makeCertificate(dir);
    const db = join(dir, "db");
    expect((await runInProcess(["new", "--db", db, "--setup", examplePath("ashfall.setup.json")])).code).toBe(0);
    const serverData = join(dir, "db-server");
    const printed: string[] = [];
    const server = await startServer(
      { db, host: "127.0.0.1", port: 0, secrets: join(dir, "db-secrets"), serverData, tls },
      (line) => void printed.push(line),
    );
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(printed[0]).toContain(`at ${server.url} `);
      const links = (await readFile(join(serverData, "invites.txt"), "utf8")).split("\n");
      const invite = (seat: string) => links.find((line) => line.startsWith(`ashfall ${seat} `))!.split(" ")[2]!;
      expect(invite("horde")).toMatch(new RegExp(`^${server.url}/join#`));

      const signedIn = await postTls(`${server.url}/session`, await readFile(tls.cert), {
        invite: invite("horde").split("#")[1],
      });
      expect(signedIn.status, signedIn.body).toBe(200);
      expect(signedIn.cookie).toMatch(/^epicwar_session=ewt_[^;]+;.*; Secure/);

      // The CLI in a process of its own (NODE_EXTRA_CA_CERTS is read as Node starts): join over https.
      const home = join(dir, "home");
      const joined = await promisify(execFile)(process.execPath, [CLI, "join", invite("concord"), "--secrets", home], {
        env: { ...process.env, HOME: home, NODE_EXTRA_CA_CERTS: tls.cert },
      });
      expect(joined.stdout).toContain(`Seated as concord in campaign ashfall on ${server.url}.`);
    } finally {
      await server.close();
    }
  });
});
