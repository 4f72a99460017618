import { describe, expect, it } from "vitest";
import { channelRequestSchema, clientControlSchema } from "./channel-protocol";

describe("what a node channel accepts as a request", () => {
  it("takes one of its operations on one workspace with bounded arguments", () => {
    expect(channelRequestSchema.safeParse({ op: "exec", workspaceId: "w1", cmd: ["ls"] }).success).toBe(true);
    expect(
      channelRequestSchema.safeParse({ op: "execTty", workspaceId: "w1", cmd: ["bash"], cols: 80, rows: 24 })
        .success,
    ).toBe(true);
  });

  it("refuses anything else: another operation, extra fields, a path for an id, unbounded arguments", () => {
    const refused = [
      { op: "createContainer", workspaceId: "w1", cmd: ["ls"] },
      { op: "exec", workspaceId: "w1", cmd: ["ls"], privileged: true },
      { op: "exec", workspaceId: "../other", cmd: ["ls"] },
      { op: "exec", workspaceId: "w1", cmd: [] },
      { op: "exec", workspaceId: "w1", cmd: Array.from({ length: 257 }, () => "x") },
      { op: "exec", workspaceId: "w1", cmd: ["x".repeat(64 * 1024 + 1)] },
      { op: "execTty", workspaceId: "w1", cmd: ["bash"], cols: 100_000, rows: 24 },
      { op: "volumeJob", workspaceId: "w1", spec: { image: "i", cmd: ["ls"], network: "host" } },
      { op: "browserJob", workspaceId: "w1", spec: { image: "i", args: [], timeoutMs: 1e9, outputLimit: 1 } },
    ];
    for (const request of refused) expect(channelRequestSchema.safeParse(request).success).toBe(false);
    expect(clientControlSchema.safeParse({ type: "resize", cols: 0, rows: 24 }).success).toBe(false);
  });
});
