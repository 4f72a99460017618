import { describe, expect, it } from "vitest";
import { noOpenFiles, type OpenFiles, type OpenFilesAction, openFilesReducer } from "./open-files";

const run = (...actions: OpenFilesAction[]): OpenFiles => actions.reduce(openFilesReducer, noOpenFiles);

describe("open files", () => {
  it("opens a file in a new tab and shows it", () => {
    const state = run({ type: "open", path: "a.ts" });
    expect(state.active).toBe("a.ts");
    expect(state.files).toEqual([
      { path: "a.ts", phase: "loading", dirty: false, saving: false, notice: null },
    ]);
  });

  it("switches to the existing tab when a file is opened twice", () => {
    const state = run(
      { type: "open", path: "a.ts" },
      { type: "open", path: "b.ts" },
      { type: "open", path: "a.ts" },
    );
    expect(state.files.map((f) => f.path)).toEqual(["a.ts", "b.ts"]);
    expect(state.active).toBe("a.ts");
  });

  it("records what kind of file was loaded, or why it could not be", () => {
    const state = run(
      { type: "open", path: "logo.png" },
      { type: "open", path: "gone.ts" },
      { type: "loaded", path: "logo.png", kind: "binary", size: 2048 },
      { type: "failed", path: "gone.ts", error: "no such file" },
    );
    expect(state.files[0]).toMatchObject({ phase: "ready", kind: "binary", size: 2048 });
    expect(state.files[1]).toMatchObject({ phase: "failed", error: "no such file" });
  });

  it("shows the neighbouring tab after closing the active one", () => {
    const opened = run({ type: "open", path: "a" }, { type: "open", path: "b" }, { type: "open", path: "c" });
    const middle = openFilesReducer(openFilesReducer(opened, { type: "activate", path: "b" }), {
      type: "close",
      path: "b",
    });
    expect(middle.active).toBe("c");
    const last = openFilesReducer(opened, { type: "close", path: "c" });
    expect(last.active).toBe("b");
    const inactive = openFilesReducer(opened, { type: "close", path: "a" });
    expect(inactive.active).toBe("c");
    expect(run({ type: "open", path: "a" }, { type: "close", path: "a" })).toEqual(noOpenFiles);
  });

  it("marks a tab dirty, saving, or in disagreement with the disk", () => {
    const state = run(
      { type: "open", path: "a" },
      { type: "update", path: "a", changes: { dirty: true, notice: "changed-on-disk" } },
    );
    expect(state.files[0]).toMatchObject({ dirty: true, notice: "changed-on-disk", saving: false });
  });

  it("ignores actions for files that are not open", () => {
    const state = run({ type: "open", path: "a" });
    expect(openFilesReducer(state, { type: "activate", path: "zzz" })).toBe(state);
    expect(openFilesReducer(state, { type: "update", path: "zzz", changes: { dirty: true } })).toBe(state);
    expect(openFilesReducer(state, { type: "close", path: "zzz" })).toBe(state);
  });

  it("follows a rename of the file or of a folder holding it", () => {
    const state = run(
      { type: "open", path: "src/a.ts" },
      { type: "open", path: "src/lib/b.ts" },
      { type: "open", path: "srcx/c.ts" },
      { type: "activate", path: "src/lib/b.ts" },
      { type: "moved", from: "src", to: "app" },
    );
    expect(state.files.map((f) => f.path)).toEqual(["app/a.ts", "app/lib/b.ts", "srcx/c.ts"]);
    expect(state.active).toBe("app/lib/b.ts");
  });
});
