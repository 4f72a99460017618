import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../db/testing/test-database";
import { containerIdOf, tagImage, untagImage } from "../docker/testing/engine-probes";
import type { RunningService } from "../service";
import {
  instanceDriver,
  requireImage,
  type SharedPlace,
  sharedPlace,
  startTestService,
  type TestService,
  waitForStatus,
} from "../testing/harness";

/** The services' log lines, to say why a pool never filled. */
const logs: string[] = [];
const log = (line: string) => logs.push(line);

/** Polls until the service's pool holds `n` ready spares. */
async function poolReaches(service: RunningService, n: number, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await service.workspaces.pool.count()) !== n) {
    if (Date.now() > deadline)
      throw new Error(`the warm pool never held ${n} spares; the service logged:\n${logs.join("\n")}`);
    await sleep(100);
  }
}

/** The ids of the spares the engine holds for `instance` that no workspace has claimed. */
async function unclaimedSpares(instance: string, service: RunningService): Promise<string[]> {
  const claimed = new Set((await service.workspaces.list()).map((w) => w.id));
  return (await instanceDriver(instance).listSpares()).map((s) => s.id).filter((id) => !claimed.has(id));
}

describe("the warm pool", () => {
  let t: TestService | undefined;
  let place: SharedPlace | undefined;
  const tags: string[] = [];
  afterEach(async () => {
    logs.length = 0;
    await t?.close();
    t = undefined;
    await place?.close();
    place = undefined;
  });
  afterAll(async () => {
    for (const tag of tags) await untagImage(tag);
  });

  it("hands a create a running workspace at once, its files ready, and fills up again behind it", async () => {
    t = await startTestService({}, { CODER_WARM_POOL: "1" }, log);
    await poolReaches(t.service, 1);
    const [spare] = await unclaimedSpares(t.instance, t.service);

    const created = await t.api.workspace.create.mutate({ name: "warm" });
    expect(created.id).toBe(spare);
    expect(created.status).toBe("running");
    await t.api.files.write.mutate({ workspaceId: created.id, path: "hello.txt", content: "hi\n" });
    expect((await t.api.files.read.query({ workspaceId: created.id, path: "hello.txt" })).content).toBe(
      "hi\n",
    );
    expect((await t.api.workspace.list.query()).map((w) => w.name)).toEqual(["warm"]);

    await poolReaches(t.service, 1);
    expect(await unclaimedSpares(t.instance, t.service)).not.toContain(created.id);
  });

  it("gives a workspace with egress a container of its own, never a spare", async () => {
    t = await startTestService({}, { CODER_WARM_POOL: "1" }, log);
    await poolReaches(t.service, 1);
    const [spare] = await unclaimedSpares(t.instance, t.service);
    const created = await t.api.workspace.create.mutate({ name: "online", egress: true });
    expect(created.id).not.toBe(spare);
    expect(created.status).toBe("creating");
    expect(await unclaimedSpares(t.instance, t.service)).toEqual([spare]);
    await waitForStatus(t.api, created.id, "running");
  });

  it("never gives two concurrent creates the same container", async () => {
    t = await startTestService({}, { CODER_WARM_POOL: "2" }, log);
    await poolReaches(t.service, 2);
    const api = t.api;
    const created = await Promise.all(
      ["a", "b", "c"].map((name) => api.workspace.create.mutate({ name: `concurrent-${name}` })),
    );
    const ids = created.map((w) => w.id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) await waitForStatus(api, id, "running");
    const instance = t.instance;
    const containers = await Promise.all(ids.map((id) => containerIdOf(instance, id)));
    expect(new Set(containers).size).toBe(3);
    // Each sees its own files only.
    for (const id of ids) await api.files.write.mutate({ workspaceId: id, path: `${id}.txt`, content: id });
    for (const id of ids) {
      const tree = await api.files.tree.query({ workspaceId: id });
      expect(tree.entries.map((e) => e.name)).toEqual([`${id}.txt`]);
    }
  });

  it("never gives one spare to creates on two services that share its database", async () => {
    // Several instances share a PostgreSQL database (one refuses to start beside another on SQLite).
    place = sharedPlace({ CODER_WARM_POOL: "1", CODER_DATABASE_URL: await createPostgresDatabase() }, log);
    const a = await place.start();
    await poolReaches(a.service, 1);
    // The second service finds the same spare listed, as a second instance would.
    const b = await place.start();
    expect(await b.service.workspaces.pool.count()).toBe(1);

    const [onA, onB] = await Promise.all([
      a.api.workspace.create.mutate({ name: "on-a" }),
      b.api.workspace.create.mutate({ name: "on-b" }),
    ]);
    expect(onA.id).not.toBe(onB.id);
    expect([onA.status, onB.status]).toContain("running");
    await waitForStatus(a.api, onA.id, "running");
    await waitForStatus(b.api, onB.id, "running");
    const instance = place.instance;
    expect(await containerIdOf(instance, onA.id)).not.toBe(await containerIdOf(instance, onB.id));
  });

  it("survives a restart of the service: the next one hands out the spare the last one made", async () => {
    place = sharedPlace({ CODER_WARM_POOL: "1" }, log);
    const first = await place.start();
    await poolReaches(first.service, 1);
    const [spare] = await unclaimedSpares(place.instance, first.service);
    await place.stop(first.service);

    const second = await place.start();
    expect(await second.service.workspaces.pool.count()).toBe(1);
    const created = await second.api.workspace.create.mutate({ name: "after-restart" });
    expect(created).toMatchObject({ id: spare, status: "running" });
    expect(await second.api.tools.list.query({ workspaceId: created.id })).not.toEqual([]);
  });

  it("retires the spares made from an older workspace image and fills up from the new one", async () => {
    place = sharedPlace({ CODER_WARM_POOL: "1" }, log);
    const old = await place.start();
    await poolReaches(old.service, 1);
    const [oldSpare] = await unclaimedSpares(place.instance, old.service);
    await place.stop(old.service);

    const rebuilt = await tagImage(requireImage(), "coder-pool-test", randomBytes(4).toString("hex"));
    tags.push(rebuilt);
    const next = await place.start({ CODER_IMAGE: rebuilt });
    await poolReaches(next.service, 1);
    const deadline = Date.now() + 60_000;
    while ((await unclaimedSpares(place.instance, next.service)).includes(oldSpare ?? "")) {
      if (Date.now() > deadline) throw new Error("the old spare was never retired");
      await sleep(100);
    }
    const created = await next.api.workspace.create.mutate({ name: "new-image" });
    expect(created).toMatchObject({ status: "running", image: rebuilt });
    expect(created.id).not.toBe(oldSpare);
  });
});
