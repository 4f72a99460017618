import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joinShare, postShare, startTestService, type TestService, waitForStatus } from "../testing/harness";

describe("the names guests join under", () => {
  let t: TestService;
  let id: string;
  let secret: string;
  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "names" })).id;
    await waitForStatus(t.api, id, "running");
    secret = (await t.api.share.create.mutate({ workspaceId: id, role: "editor" })).url.split("/s/")[1] ?? "";
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The answer to joining under `name`: its status and the sentence, if any. */
  async function join(name: string, link = secret): Promise<[number, string | undefined]> {
    const res = await postShare(t.url, link, name);
    return [res.status, res.status === 204 ? undefined : ((await res.json()) as { error: string }).error];
  }

  it("refuses every name that would pose as the owner or the agent, or that shows nothing, with a sentence", async () => {
    const posing = ["Owner", "Agent", "\u202eOwner", "\u041ewner", "owner", "\u0410gent"];
    for (const name of posing) {
      const [status, error] = await join(name);
      expect([name, status]).toEqual([name, 400]);
      expect(error).toMatch(
        /^"(Owner|Agent)" is how the service shows the workspace's (owner|agent), and .+ looks like it/,
      );
    }
    for (const name of ["\u3164", "\u2800\u2800"])
      expect(await join(name)).toEqual([400, "a name needs at least one visible letter, digit or symbol"]);
    // None of them joined.
    const [link] = await t.api.share.list.query({ workspaceId: id });
    expect(link?.joined).toEqual([]);
  });

  it("refuses a name that looks like that of a guest already in the workspace, through any of its links", async () => {
    await joinShare(t.url, `${t.url}/s/${secret}`, "Ada");
    const other =
      (await t.api.share.create.mutate({ workspaceId: id, role: "viewer" })).url.split("/s/")[1] ?? "";
    expect(await join("\u0410da", other)).toEqual([
      400,
      '"\u0410da" looks like "Ada", the name of someone already in this workspace: choose another name',
    ]);
    expect(await join("Ada", other)).toEqual([
      400,
      'someone in this workspace is already called "Ada": choose another name',
    ]);
  });

  it("accepts ordinary names in any script, with accents or emoji", async () => {
    for (const name of ["Zoë Müller", "李雷", "Мария", "🦊 Fox"])
      expect(await join(name)).toEqual([204, undefined]);
    const [link] = await t.api.share.list.query({ workspaceId: id });
    expect(link?.joined).toEqual(["Ada", "Zoë Müller", "李雷", "Мария", "🦊 Fox"]);
  });
});
