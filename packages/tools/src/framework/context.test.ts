import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "../testing/workspace";
import { createToolContext } from "./context";
import { createSessionStore } from "./session";

describe("createToolContext", () => {
  it("fills in defaults: a real root, a fresh session, an ask that rejects", async () => {
    const ws = createTestWorkspace();
    try {
      const ctx = createToolContext({ workspaceRoot: `${ws.root}/./` });
      expect(ctx.workspaceRoot).toBe(ws.root);
      expect(ctx.session.files.size).toBe(0);
      expect(ctx.abort.aborted).toBe(false);
      expect(ctx.callId).toMatch(/^call_/);
      await expect(ctx.ask({ permission: "bash", patterns: ["ls"], title: "ls" })).rejects.toMatchObject({
        code: "rejected",
      });
    } finally {
      ws.cleanup();
    }
  });
});

describe("createSessionStore", () => {
  it("keeps one state per session id until it is deleted", () => {
    const store = createSessionStore();
    const a = store.get("a");
    a.todos.push({ id: "1", content: "x", status: "pending", priority: "low" });
    expect(store.get("a")).toBe(a);
    expect(store.get("b").todos).toEqual([]);
    expect(store.ids()).toEqual(["a", "b"]);
    expect(store.delete("a")).toBe(true);
    expect(store.has("a")).toBe(false);
    expect(store.get("a").todos).toEqual([]);
  });
});
