import { MAX_CALLS_PER_BATCH } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";

const FLOOD_BATCHES = 15;

describe("one person's calls cannot starve another's", () => {
  let t: TestService;
  let id: string;
  let viewer: string;

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "fair-calls" })).id;
    await waitForStatus(t.api, id, "running");
    viewer = await joinShare(
      t.url,
      (await t.api.share.create.mutate({ workspaceId: id, role: "viewer" })).url,
      "Vera",
    );
    await execIn(t.instance, id, ["sh", "-c", "head -c 750000 /dev/urandom | base64 > /workspace/big.txt"]);
    await t.api.files.write.mutate({ workspaceId: id, path: "small.txt", content: "the owner's notes\n" });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** `files.read` of `path`, `count` times in one batched request, as httpBatchLink sends it. */
  function readBatch(cookie: string, count: number, path: string): Promise<Response> {
    const input = Object.fromEntries(Array.from({ length: count }, (_, i) => [i, { workspaceId: id, path }]));
    const paths = Array(count).fill("files.read").join(",");
    return fetch(`${t.url}/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { cookie, origin: t.url },
    });
  }

  it("refuses a batch of more calls than the limit before running any", async () => {
    const res = await readBatch(viewer, MAX_CALLS_PER_BATCH + 1, "big.txt");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Batch call exceeds maximum size");
    expect((await readBatch(viewer, MAX_CALLS_PER_BATCH, "small.txt")).status).toBe(200);
  });

  it("answers the owner's read while a viewer floods full batches of large reads, long before the flood ends", async () => {
    let viewerBatchesAnswered = 0;
    const flood = Array.from({ length: FLOOD_BATCHES }, async () => {
      const res = await readBatch(viewer, MAX_CALLS_PER_BATCH, "big.txt");
      await res.arrayBuffer();
      viewerBatchesAnswered++;
    });
    // The owner reads once the viewer's reads are being served.
    await until(() => viewerBatchesAnswered > 0, "the viewer's first batch was answered", 120_000);
    const owner = await t.api.files.read.query({ workspaceId: id, path: "small.txt" });
    const answeredBeforeOwner = viewerBatchesAnswered;
    expect(owner).toMatchObject({ content: "the owner's notes\n" });
    await Promise.all(flood);
    expect(answeredBeforeOwner).toBeLessThan(FLOOD_BATCHES / 2);
  });
});
