import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "../../testing/workspace";

let ws: TestWorkspace;
beforeEach(() => {
  ws = createTestWorkspace();
});
afterEach(() => ws.cleanup());

const todo = (id: string, status: string, priority = "medium") => ({
  id,
  content: `step ${id}`,
  status,
  priority,
});

describe("todowrite and todoread", () => {
  it("start with an empty list", async () => {
    const { result, output } = await ws.call("todoread", {});
    expect(result).toEqual({ ok: true, session_id: "test", items: [], count: 0, in_progress: 0 });
    expect(output).toBe("The todo list is empty.");
  });

  it("replace the whole list and read it back in the same session", async () => {
    await ws.call("todowrite", { todos: [todo("1", "pending"), todo("2", "pending")] });
    const written = await ws.call("todowrite", {
      todos: [todo("1", "completed"), todo("3", "in_progress", "high")],
    });
    expect(written.result).toMatchObject({ ok: true, count: 2, in_progress: 1 });
    const { result, output } = await ws.call("todoread", {});
    expect(result.items).toEqual([todo("1", "completed"), todo("3", "in_progress", "high")]);
    expect(output).toBe("1/2 done\n[x] step 1 (medium, id 1)\n[~] step 3 (high, id 3)");
  });

  it("keep lists apart per session", async () => {
    await ws.call("todowrite", { todos: [todo("1", "pending")] });
    const other = createTestWorkspace();
    try {
      expect((await other.call("todoread", {})).result.count).toBe(0);
    } finally {
      other.cleanup();
    }
  });

  it("refuse more than one item in progress, leaving the list as it was", async () => {
    await ws.call("todowrite", { todos: [todo("1", "pending")] });
    const { result } = await ws.call("todowrite", {
      todos: [todo("1", "in_progress"), todo("2", "in_progress")],
    });
    expect(result.error?.code).toBe("invalid_args");
    expect(result.error?.message).toContain("at most one item may be in_progress, found 2 (1, 2)");
    expect((await ws.call("todoread", {})).result.items).toEqual([todo("1", "pending")]);
  });

  it("refuse an unknown status or priority and repeated ids", async () => {
    const status = await ws.call("todowrite", { todos: [todo("1", "doing")] });
    expect(status.result.error?.message).toContain("todos.0.status");
    const priority = await ws.call("todowrite", { todos: [todo("1", "pending", "urgent")] });
    expect(priority.result.error?.message).toContain("todos.0.priority");
    const repeated = await ws.call("todowrite", { todos: [todo("1", "pending"), todo("1", "completed")] });
    expect(repeated.result.error?.message).toContain("repeated: 1");
  });
});
