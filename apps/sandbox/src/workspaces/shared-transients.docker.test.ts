import { randomBytes } from "node:crypto";
import type { Workspace } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../db/testing/test-database";
import { type GitServer, makeRepository, startGitServer } from "../imports/testing/git-server";
import { type SharedPlace, sharedPlace, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";

describe("two service instances on one PostgreSQL database, one of them cloning a repository", () => {
  let server: GitServer;
  let place: SharedPlace | undefined;
  beforeAll(async () => {
    // Served slowly (about 512 KB/s): the clone lasts a few seconds.
    server = await startGitServer((root) =>
      makeRepository(root, "sizable", { "blob.bin": randomBytes(3 << 20) }),
    );
  });
  afterAll(async () => {
    await place?.close();
    await server?.close();
  });

  it("shows the clone's progress through the other instance too, which waits for it, never an import cut off, then the workspace running", async () => {
    place = sharedPlace({
      CODER_DATABASE_URL: await createPostgresDatabase(),
      CODER_EGRESS_ALLOW: server.allow,
    });
    const a = await place.start();
    const b = await place.start();
    const { id } = await a.api.workspace.create.mutate({
      name: "cloning",
      source: { type: "git", url: `${server.url}/slow/sizable.git`, submodules: false },
    });
    const seen: Workspace[] = [];
    await until(async () => {
      const workspace = await b.api.workspace.get.query({ workspaceId: id });
      seen.push(workspace);
      return workspace.import?.progress?.phase === "receiving";
    }, "B shows the clone receiving");
    expect(seen.at(-1)).toMatchObject({ status: "creating", import: { state: "running" } });
    expect((await b.api.workspace.list.query()).find((w) => w.id === id)?.status).toBe("creating");
    // B knows A is at work on it: a stop through B waits its turn instead of cutting the clone.
    await expect(b.api.workspace.stop.mutate({ workspaceId: id })).rejects.toThrow(
      /the workspace is creating; wait a moment/,
    );
    await waitForStatus(b.api, id, "running");
    expect(seen.map((w) => w.status)).not.toContain("error");
  });
});
