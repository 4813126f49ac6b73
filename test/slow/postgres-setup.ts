/**
 * The slow tier's global setup: one PostgreSQL cluster of its own for every test file that needs one, started before
 * the files run and removed after. Each test makes a database of its own in it (test/support/postgres.ts).
 */
import type { TestProject } from "vitest/node";
import { startCluster } from "../support/postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The URL of the cluster's `postgres` database, as its superuser. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startCluster();
  project.provide("postgresUrl", cluster.url);
  return () => cluster.stop();
}
