import type { Workspace } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { applyWorkspaceEvent, newestFirst } from "./workspace-events";

function ws(id: string, overrides: Partial<Workspace> = {}): Workspace {
  return {
    id,
    name: id,
    status: "running",
    egress: false,
    image: "coder-workspace",
    createdAt: "2025-01-01T00:00:00.000Z",
    ...overrides,
  };
}

describe("applyWorkspaceEvent", () => {
  it("adds a workspace created elsewhere", () => {
    const list = [ws("aaaaaaaaaaaa")];
    const next = applyWorkspaceEvent(list, { type: "upsert", workspace: ws("bbbbbbbbbbbb") });
    expect(next?.map((w) => w.id)).toEqual(["aaaaaaaaaaaa", "bbbbbbbbbbbb"]);
  });

  it("updates the status of a listed workspace in place", () => {
    const list = [ws("aaaaaaaaaaaa", { status: "creating" }), ws("bbbbbbbbbbbb")];
    const next = applyWorkspaceEvent(list, {
      type: "upsert",
      workspace: ws("aaaaaaaaaaaa", { status: "running" }),
    });
    expect(next?.map((w) => [w.id, w.status])).toEqual([
      ["aaaaaaaaaaaa", "running"],
      ["bbbbbbbbbbbb", "running"],
    ]);
  });

  it("removes a deleted workspace", () => {
    const list = [ws("aaaaaaaaaaaa"), ws("bbbbbbbbbbbb")];
    const next = applyWorkspaceEvent(list, { type: "deleted", workspaceId: "aaaaaaaaaaaa" });
    expect(next?.map((w) => w.id)).toEqual(["bbbbbbbbbbbb"]);
  });

  it("keeps the list as it is on resync (the caller refetches it)", () => {
    const list = [ws("aaaaaaaaaaaa")];
    expect(applyWorkspaceEvent(list, { type: "resync" })).toBe(list);
  });

  it("leaves a list that has not loaded yet to the first fetch", () => {
    expect(applyWorkspaceEvent(undefined, { type: "upsert", workspace: ws("aaaaaaaaaaaa") })).toBeUndefined();
  });
});

describe("newestFirst", () => {
  it("puts the most recently created workspace on top", () => {
    const list = [
      ws("aaaaaaaaaaaa", { createdAt: "2025-01-01T00:00:00.000Z" }),
      ws("bbbbbbbbbbbb", { createdAt: "2025-03-01T00:00:00.000Z" }),
    ];
    expect(newestFirst(list).map((w) => w.id)).toEqual(["bbbbbbbbbbbb", "aaaaaaaaaaaa"]);
  });
});
