import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** The URL of the slow tier's cluster (test/slow/postgres-setup.ts). */
export function clusterUrl(): string {
  return inject("postgresUrl");
}

/** A new, empty database in the tests' cluster: its URL. Each test that writes a log makes its own. */
export async function freshDatabase(prefix = "t"): Promise<string> {
  const admin = new pg.Client({ connectionString: clusterUrl() });
  await admin.connect();
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(clusterUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
