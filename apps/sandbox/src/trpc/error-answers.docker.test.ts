import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdWorkspaceVolume } from "../docker/testing/engine-probes";
import { requireImage, startTestService, type TestService, waitForStatus } from "../testing/harness";

const repo = path.resolve(import.meta.dirname, "../../../..");

/** What must never be in an answer: a stack, or a path of the service's machine. */
function expectNothingOfTheHost(body: string): void {
  expect(body).not.toMatch(/"stack"/);
  expect(body).not.toContain("node_modules");
  expect(body).not.toContain(repo);
  expect(body).not.toMatch(/\bat .*\(\/|\.ts:\d+/);
}

describe("error answers of the API", () => {
  let t: TestService;
  const log: string[] = [];
  beforeAll(async () => {
    t = await startTestService({}, {}, (line) => log.push(line));
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (procedure: string, input: unknown) => {
    const query = encodeURIComponent(JSON.stringify(input));
    const res = await fetch(`${t.url}/api/trpc/${procedure}?input=${query}`, {
      headers: { cookie: t.cookie },
    });
    return { status: res.status, body: await res.text() };
  };

  it("say what was not found, without a stack", async () => {
    const missing = await get("workspace.get", { workspaceId: "w0000000000000000" });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.message).toMatch(/does not exist/);
    expectNothingOfTheHost(missing.body);

    const unknown = await get("workspace.nothing", {});
    expect(unknown.status).toBe(404);
    expectNothingOfTheHost(unknown.body);
  });

  it("say a plain sentence when the service itself fails, and keep the details for its log", async () => {
    const { id } = await t.api.workspace.create.mutate({ name: "held volume" });
    await waitForStatus(t.api, id, "running");
    // Another container holds the workspace's volume, so the engine refuses to remove it (a real 409).
    await holdWorkspaceVolume(t.instance, id, requireImage());

    const res = await fetch(`${t.url}/api/trpc/workspace.delete`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: t.url, cookie: t.cookie },
      body: JSON.stringify({ workspaceId: id }),
    });
    const body = await res.text();
    expect(res.status).toBe(500);
    expect(JSON.parse(body).error.message).toBe(
      "something went wrong in the service; its log has the details",
    );
    expect(body).not.toMatch(/HTTP code|volume is in use/);
    expectNothingOfTheHost(body);
    expect(log.join("\n")).toMatch(/trpc workspace\.delete: .*volume is in use[\s\S]*node_modules/);
  });
});
