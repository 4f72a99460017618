import type { TestProject } from "vitest/node";
import { startPostgresServer } from "./postgres-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** The superuser URL of this test run's PostgreSQL server (db/testing/test-database.ts). */
    postgresUrl: string;
  }
}

/** One PostgreSQL server per test run; each test database on it is made fresh (test-database.ts). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
