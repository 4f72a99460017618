import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { type RunningService, startService } from "../service";
import {
  login,
  newInstance,
  removeInstance,
  requireImage,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { createPostgresDatabase } from "./testing/test-database";

describe("the service on PostgreSQL", () => {
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-pg-service-"));
  let service: RunningService | undefined;
  afterAll(async () => {
    await service?.close();
    await removeInstance(instance);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates a workspace, serves its files and finds everything again after a restart", async () => {
    const config = loadConfig({
      CODER_IMAGE: requireImage(),
      CODER_DATA_DIR: dataDir,
      CODER_DATABASE_URL: await createPostgresDatabase(),
      CODER_PORT: "0",
      CODER_INSTANCE: instance,
      CODER_MEMORY_MB: "512",
    });
    service = await startService(config, () => undefined);
    const token = service.adminToken ?? "";
    const api = trpcClient(service.url, await login(service.url, token));
    const { id } = await api.workspace.create.mutate({ name: "on postgres", egress: false });
    await waitForStatus(api, id, "running");
    await api.files.write.mutate({ workspaceId: id, path: "hello.txt", content: "hi\n" });
    expect((await api.files.read.query({ workspaceId: id, path: "hello.txt" })).content).toBe("hi\n");
    const session = await api.session.create.mutate({ workspaceId: id, agent: "build" });
    // Stored in PostgreSQL, and nothing in the data folder.
    const client = new pg.Client(config.databaseUrl);
    await client.connect();
    const rows = await client.query("select name, egress from workspaces");
    await client.end();
    expect(rows.rows).toEqual([{ name: "on postgres", egress: false }]);
    expect(existsSync(path.join(dataDir, "coder.db"))).toBe(false);

    await service.close();
    service = await startService(config, () => undefined);
    expect(service.adminToken).toBeNull();
    const again = trpcClient(service.url, await login(service.url, token));
    expect((await again.workspace.list.query()).map((w) => [w.id, w.name, w.egress, w.status])).toEqual([
      [id, "on postgres", false, "running"],
    ]);
    expect((await again.session.list.query({ workspaceId: id })).map((s) => s.id)).toEqual([session.id]);
    expect((await again.files.read.query({ workspaceId: id, path: "hello.txt" })).content).toBe("hi\n");
  });
});
