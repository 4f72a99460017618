import type { Duplex } from "node:stream";
import Docker from "dockerode";
import { expect } from "vitest";
import type { PortStreams } from "../../daemon/port-streams";
import type { AttachedProcess, WorkspaceDriver } from "../../driver/workspace-driver";
import { APP_PORT, startApp } from "../../preview/testing/start-app";
import { startTestService, type TestService, waitForStatus } from "../../testing/harness";
import { until } from "../../testing/until";
import { containerName } from "../container-spec";

/** An HTTP GET of `/` through a tunnel: the app's answer as text. */
export async function getThrough(tunnel: Duplex): Promise<string> {
  const chunks: Buffer[] = [];
  tunnel.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => tunnel.once("end", resolve));
  tunnel.end("GET / HTTP/1.1\r\nhost: app\r\nconnection: close\r\n\r\n");
  await ended;
  return Buffer.concat(chunks).toString();
}

/**
 * What a tunnel of workspace `id` cannot reach: the service's port on the host's loopback, and an
 * app of workspace `other` on a port `id` leaves free (reached through `other`'s own tunnel).
 */
export async function expectOnlyItsOwnLoopback(
  t: TestService,
  driver: WorkspaceDriver,
  streams: PortStreams,
  id: string,
  other: string,
): Promise<void> {
  const servicePort = Number(new URL(t.url).port);
  await expect(streams.open(id, servicePort)).rejects.toThrow(`nothing listens on port ${servicePort}`);
  const otherPort = APP_PORT + 1;
  const otherApp = await startApp(t.api, driver, other, otherPort);
  try {
    expect(await getThrough(await streams.open(other, otherPort))).toMatch(/hello/);
    await expect(streams.open(id, otherPort)).rejects.toThrow(`nothing listens on port ${otherPort}`);
  } finally {
    await otherApp.close();
  }
}

/** A test service (with `env`) and two running workspaces of it, `id` and `other`. */
export async function serviceWithTwoWorkspaces(
  name: string,
  env: Record<string, string> = {},
): Promise<{ t: TestService; id: string; other: string }> {
  const t = await startTestService({}, env);
  const [id, other] = await Promise.all(
    [name, `${name}-other`].map(async (workspace) => {
      const { id } = await t.api.workspace.create.mutate({ name: workspace });
      await waitForStatus(t.api, id, "running");
      return id;
    }),
  );
  return { t, id: id as string, other: other as string };
}

/** Whether workspace `id`'s app answers `/` through a new tunnel. */
export async function answersThrough(streams: PortStreams, id: string): Promise<boolean> {
  try {
    return /hello/.test(await getThrough(await streams.open(id, APP_PORT)));
  } catch {
    return false;
  }
}

/**
 * Restarts workspace `id`'s container through the engine, not the service (a new network
 * namespace), starts its app again, and waits until it answers through `streams` (the port list
 * may still show the earlier start's app for a moment). The new app.
 */
export async function restartBehindTheServicesBack(
  t: TestService,
  driver: WorkspaceDriver,
  streams: PortStreams,
  id: string,
): Promise<AttachedProcess> {
  await new Docker().getContainer(containerName(t.instance, id)).restart({ t: 1 });
  await waitForStatus(t.api, id, "running");
  const app = await startApp(t.api, driver, id);
  await until(() => answersThrough(streams, id), "the app answers through a tunnel");
  return app;
}
