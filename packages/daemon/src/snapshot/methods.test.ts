import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DaemonErrorCode } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ErrorCodes } from "vscode-jsonrpc/node";
import { startTestDaemon, type TestDaemon } from "../testing/harness";

let d: TestDaemon;
beforeEach(async () => {
  d = await startTestDaemon();
});
afterEach(async () => {
  await d.stop();
});

describe("snapshot methods", () => {
  it("take, diff and restore a change through the daemon", async () => {
    writeFileSync(path.join(d.root, "a.txt"), "one\n");
    const before = await d.request("snapshot.take", {});
    writeFileSync(path.join(d.root, "a.txt"), "two\n");
    const after = await d.request("snapshot.take", {});
    const diff = await d.request("snapshot.diff", { from: before.id, to: after.id });
    expect(diff.files.map((f) => [f.path, f.status])).toEqual([["a.txt", "modified"]]);
    const restored = await d.request("snapshot.restore", { from: before.id, to: after.id });
    expect(restored).toEqual({ restored: ["a.txt"], removed: [] });
    expect(readFileSync(path.join(d.root, "a.txt"), "utf8")).toBe("one\n");
  });

  it("refuse an id that is not a snapshot id", async () => {
    const error = await d.failure("snapshot.diff", { from: "HEAD~1" });
    expect(error.code).toBe(ErrorCodes.InvalidParams);
  });

  it("say so when a snapshot is unknown", async () => {
    const error = await d.failure("snapshot.diff", { from: "a".repeat(40) });
    expect(error.code).toBe(DaemonErrorCode.NotFound);
  });
});
