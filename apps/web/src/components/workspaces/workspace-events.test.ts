import { describe, expect, it } from "vitest";
import { applyWorkspaceEvent, type ListedWorkspace, newestFirst } from "./workspace-events";

function ws(id: string, overrides: Partial<ListedWorkspace> = {}): ListedWorkspace {
  return {
    id,
    role: "owner",
    owner: { id: "u1", name: "Ada" },
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

  it("keeps the caller's role and the owner when the page's own answer updates a row", () => {
    const list = [ws("aaaaaaaaaaaa", { role: "editor", status: "stopped" })];
    const { role: _role, owner: _owner, ...answer } = ws("aaaaaaaaaaaa", { status: "running" });
    const next = applyWorkspaceEvent(list, { type: "upsert", workspace: answer });
    expect(next?.map((w) => [w.role, w.owner?.name, w.status])).toEqual([["editor", "Ada", "running"]]);
  });

  it("adds no workspace whose role on it the page does not know", () => {
    const list = [ws("aaaaaaaaaaaa")];
    const { role: _role, owner: _owner, ...plain } = ws("bbbbbbbbbbbb");
    expect(applyWorkspaceEvent(list, { type: "upsert", workspace: plain })).toEqual(list);
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
