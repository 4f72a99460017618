import type { AddressInfo } from "node:net";
import { AuthService } from "./auth/auth-service";
import type { Config } from "./config";
import { openDatabase } from "./db/database";
import { DockerDriver } from "./docker/docker-driver";
import { createServer } from "./http/server";
import { WorkspaceService } from "./workspaces/workspace-service";

export interface RunningService {
  url: string;
  /** Printed once: only set on the first start of a data folder. */
  adminToken: string | null;
  /** A single-use login link for this start. */
  loginUrl: string;
  auth: AuthService;
  workspaces: WorkspaceService;
  close(): Promise<void>;
}

/** Wires the service together and listens. Used by main.ts and by integration tests. */
export async function startService(
  config: Config,
  log: (line: string) => void = console.error,
): Promise<RunningService> {
  const db = await openDatabase(config.dataDir);
  const auth = new AuthService(db);
  const adminToken = await auth.ensureAdminToken();
  const driver = new DockerDriver({
    instance: config.instance,
    runtime: config.runtime,
    memoryBytes: config.limits.memoryBytes,
    nanoCpus: config.limits.nanoCpus,
    pidsLimit: config.limits.pidsLimit,
  });
  try {
    await driver.docker.ping();
  } catch (err) {
    await db.destroy();
    throw new Error(
      `the Docker engine does not answer (${(err as Error).message}); run \`npm start\`, which starts one`,
    );
  }
  const workspaces = new WorkspaceService(db, driver, config.image, log);
  await workspaces.init();
  const server = createServer({
    auth,
    workspaces,
    driver,
    webUpstream: config.webUpstream,
    allowedOrigins: config.allowedOrigins,
    secureCookies: config.secureCookies,
    log,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  const url = `http://${host}:${port}`;
  const ticket = await auth.createLoginTicket();
  return {
    url,
    adminToken,
    loginUrl: `${url}/auth/ticket?t=${ticket}`,
    auth,
    workspaces,
    async close() {
      workspaces.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.destroy();
    },
  };
}
