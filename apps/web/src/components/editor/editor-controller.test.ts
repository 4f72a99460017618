import { setTimeout as sleep } from "node:timers/promises";
import type { ReadResult } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { LiveDocumentError } from "./collab/live-document";
import { EditorController, type EditorControllerDeps } from "./editor-controller";
import type { FilesApi } from "./file-sync";

function codedError(message: string, code: string): Error {
  return Object.assign(new Error(message), { data: { code } });
}

/** A workspace on "disk" with versioned files, and a record of the writes the editor made. */
function fakeDisk(initial: Record<string, string>) {
  const files = new Map<string, { content: string; version: number; kind?: ReadResult["kind"] }>(
    Object.entries(initial).map(([path, content]) => [path, { content, version: 1 }]),
  );
  const writes: { path: string; content: string; expectedVersion: string | undefined }[] = [];
  let holdWrites: (() => void)[] | null = null;
  const api: FilesApi = {
    read: async (path) => {
      const file = files.get(path);
      if (!file) throw codedError(`${path}: no such file`, "NOT_FOUND");
      return {
        path,
        size: file.content.length,
        mtimeMs: 0,
        version: `v${file.version}`,
        kind: file.kind ?? "text",
        content: file.kind && file.kind !== "text" ? "" : file.content,
      };
    },
    write: async (path, content, expectedVersion) => {
      writes.push({ path, content, expectedVersion });
      const file = files.get(path);
      if (expectedVersion && file && `v${file.version}` !== expectedVersion) {
        throw codedError("the file changed on disk since it was read", "CONFLICT");
      }
      const version = (file?.version ?? 0) + 1;
      files.set(path, { content, version });
      // Held writes are on disk but not yet answered, as when the watcher is faster than the reply.
      if (holdWrites) await new Promise<void>((resolve) => holdWrites?.push(resolve));
      return { path, size: content.length, mtimeMs: 0, version: `v${version}` };
    },
  };
  return {
    api,
    writes,
    files,
    /** Someone else (the agent, a terminal) changes the file. */
    change(path: string, content: string) {
      const file = files.get(path);
      files.set(path, { content, version: (file?.version ?? 0) + 1 });
    },
    holdWrites() {
      holdWrites = [];
    },
    releaseWrites() {
      for (const release of holdWrites ?? []) release();
      holdWrites = null;
    },
  };
}

function setup(
  initial: Record<string, string>,
  answers: { confirm?: boolean; openLive?: EditorControllerDeps["openLive"] } = {},
) {
  const disk = fakeDisk(initial);
  const errors: string[] = [];
  const confirms: string[] = [];
  const controller = new EditorController({
    files: disk.api,
    confirm: (message) => {
      confirms.push(message);
      return answers.confirm ?? false;
    },
    showError: (message) => errors.push(message),
    sessionExpired: () => false,
    openLive: answers.openLive,
  });
  const text = (path: string) => controller.documents.get(path)?.state.doc.toString();
  const tabs = () => controller.snapshot();
  const tab = (path: string) => tabs().files.find((f) => f.path === path);
  const type = (path: string, insert: string) => {
    const length = controller.documents.get(path)?.state.doc.length ?? 0;
    controller.transact(path, { changes: { from: length, insert } });
  };
  const settle = () => sleep(0);
  return { disk, controller, errors, confirms, text, tab, type, settle, tabs };
}

describe("EditorController", () => {
  it("notifies subscribers when the tabs change", async () => {
    const t = setup({ "a.ts": "a" });
    let notified = 0;
    const unsubscribe = t.controller.subscribe(() => notified++);
    await t.controller.open("a.ts");
    expect(notified).toBe(2);
    unsubscribe();
    t.controller.close("a.ts");
    expect(notified).toBe(2);
  });

  it("opens a text file in a clean tab", async () => {
    const t = setup({ "src/a.ts": "export const a = 1;\n" });
    await t.controller.open("./src/a.ts");
    expect(t.tabs().active).toBe("src/a.ts");
    expect(t.tab("src/a.ts")).toMatchObject({ phase: "ready", kind: "text", dirty: false });
    expect(t.text("src/a.ts")).toBe("export const a = 1;\n");
  });

  it("opens binary and oversized files as a message, without an editor", async () => {
    const t = setup({ "logo.png": "" });
    t.disk.files.set("logo.png", { content: "", version: 1, kind: "binary" });
    await t.controller.open("logo.png");
    expect(t.tab("logo.png")).toMatchObject({ phase: "ready", kind: "binary" });
    expect(t.controller.documents.get("logo.png")).toBeUndefined();
  });

  it("opens a file the saved way, reading it once, when live editing refuses it", async () => {
    const asked: string[] = [];
    const t = setup(
      { "big.log": "lines" },
      {
        openLive: async (path) => {
          asked.push(path);
          throw new LiveDocumentError("too-large", "the file is too large to edit live");
        },
      },
    );
    const read = t.disk.api.read;
    let reads = 0;
    t.disk.api.read = (path) => {
      reads++;
      return read(path);
    };
    await t.controller.open("big.log");
    expect(asked).toEqual(["big.log"]);
    expect(reads).toBe(1);
    expect(t.tab("big.log")).toMatchObject({ phase: "ready", kind: "text", dirty: false });
    expect(t.tab("big.log")?.live).toBeFalsy();
    t.type("big.log", "!");
    await t.controller.save("big.log");
    expect(t.disk.writes).toEqual([{ path: "big.log", content: "lines!", expectedVersion: "v1" }]);
  });

  it("does not open a file when live editing says access ended", async () => {
    const t = setup(
      { "a.ts": "a" },
      {
        openLive: async () => {
          throw new LiveDocumentError("access", "the share link was revoked");
        },
      },
    );
    await t.controller.open("a.ts");
    expect(t.tab("a.ts")).toMatchObject({ phase: "failed", error: "the share link was revoked" });
    expect(t.controller.documents.get("a.ts")).toBeUndefined();
  });

  it("shows why a file could not be opened, and tries again when it is opened again", async () => {
    const t = setup({});
    await t.controller.open("missing.ts");
    expect(t.tab("missing.ts")).toMatchObject({ phase: "failed", error: "missing.ts: no such file" });
    t.disk.change("missing.ts", "now here");
    await t.controller.open("missing.ts");
    expect(t.text("missing.ts")).toBe("now here");
  });

  it("marks the tab dirty on edit and clean after saving, sending the version it read", async () => {
    const t = setup({ "a.ts": "a" });
    await t.controller.open("a.ts");
    t.type("a.ts", "b");
    expect(t.tab("a.ts")?.dirty).toBe(true);
    await t.controller.save("a.ts");
    expect(t.disk.writes).toEqual([{ path: "a.ts", content: "ab", expectedVersion: "v1" }]);
    expect(t.tab("a.ts")).toMatchObject({ dirty: false, saving: false });
    t.type("a.ts", "c");
    await t.controller.save("a.ts");
    expect(t.disk.writes[1]).toEqual({ path: "a.ts", content: "abc", expectedVersion: "v2" });
  });

  it("offers reload or overwrite when the save finds the file changed on disk", async () => {
    const t = setup({ "a.ts": "a" });
    await t.controller.open("a.ts");
    t.type("a.ts", "mine");
    t.disk.change("a.ts", "theirs");
    await t.controller.save("a.ts");
    expect(t.tab("a.ts")).toMatchObject({ notice: "save-conflict", dirty: true });
    expect(t.errors).toEqual([]);

    await t.controller.save("a.ts", true);
    expect(t.disk.writes.at(-1)).toEqual({ path: "a.ts", content: "amine", expectedVersion: undefined });
    expect(t.disk.files.get("a.ts")?.content).toBe("amine");
    expect(t.tab("a.ts")).toMatchObject({ notice: null, dirty: false });
  });

  it("reloads the disk's text on request after a conflict", async () => {
    const t = setup({ "a.ts": "a" });
    await t.controller.open("a.ts");
    t.type("a.ts", "mine");
    t.disk.change("a.ts", "theirs");
    await t.controller.save("a.ts");
    await t.controller.reload("a.ts");
    expect(t.text("a.ts")).toBe("theirs");
    expect(t.tab("a.ts")).toMatchObject({ notice: null, dirty: false });
  });

  it("says why a save failed for any other reason", async () => {
    const t = setup({ "a.ts": "a" });
    await t.controller.open("a.ts");
    t.disk.api.write = async () => {
      throw codedError("the workspace is not running", "PRECONDITION_FAILED");
    };
    await t.controller.save("a.ts");
    expect(t.errors).toEqual(["Could not save a.ts: the workspace is not running"]);
    expect(t.tab("a.ts")).toMatchObject({ saving: false, notice: null });
  });

  it("reloads a clean tab when its file changes on disk", async () => {
    const t = setup({ "a.ts": "old" });
    await t.controller.open("a.ts");
    t.disk.change("a.ts", "new");
    t.controller.fileChanges([{ type: "change", path: "a.ts" }]);
    await t.settle();
    expect(t.text("a.ts")).toBe("new");
    expect(t.tab("a.ts")).toMatchObject({ dirty: false, notice: null });
  });

  it("asks before touching unsaved edits when the file changes on disk, and can keep them", async () => {
    const t = setup({ "a.ts": "old" });
    await t.controller.open("a.ts");
    t.type("a.ts", "+mine");
    t.disk.change("a.ts", "theirs");
    t.controller.fileChanges([{ type: "change", path: "a.ts" }]);
    await t.settle();
    expect(t.text("a.ts")).toBe("old+mine");
    expect(t.tab("a.ts")?.notice).toBe("changed-on-disk");

    t.controller.keepMine("a.ts");
    expect(t.tab("a.ts")?.notice).toBeNull();
    await t.controller.save("a.ts");
    expect(t.disk.files.get("a.ts")?.content).toBe("old+mine");
    expect(t.tab("a.ts")?.notice).toBeNull();
  });

  it("ignores the change event of its own save", async () => {
    const t = setup({ "a.ts": "a" });
    await t.controller.open("a.ts");
    t.type("a.ts", "b");
    await t.controller.save("a.ts");
    t.type("a.ts", "c");
    t.controller.fileChanges([{ type: "change", path: "a.ts" }]);
    await t.settle();
    expect(t.tab("a.ts")).toMatchObject({ notice: null, dirty: true });
    expect(t.text("a.ts")).toBe("abc");
  });

  it("waits for a save in flight before comparing with the disk", async () => {
    const t = setup({ "a.ts": "a" });
    await t.controller.open("a.ts");
    t.type("a.ts", "b");
    t.disk.holdWrites();
    const saving = t.controller.save("a.ts");
    t.controller.fileChanges([{ type: "change", path: "a.ts" }]);
    await t.settle();
    expect(t.tab("a.ts")?.notice).toBeNull();
    t.disk.releaseWrites();
    await saving;
    await t.settle();
    expect(t.tab("a.ts")).toMatchObject({ notice: null, dirty: false });
  });

  it("tells the person when an open file is deleted, and lets saving bring it back", async () => {
    const t = setup({ "src/a.ts": "a" });
    await t.controller.open("src/a.ts");
    t.disk.files.delete("src/a.ts");
    t.controller.fileChanges([{ type: "unlinkDir", path: "src" }]);
    expect(t.tab("src/a.ts")?.notice).toBe("deleted-on-disk");
    t.controller.keepMine("src/a.ts");
    await t.controller.save("src/a.ts");
    expect(t.disk.writes.at(-1)).toEqual({ path: "src/a.ts", content: "a", expectedVersion: undefined });
  });

  it("clears the deleted notice when the file comes back", async () => {
    const t = setup({ "a.ts": "a" });
    await t.controller.open("a.ts");
    t.controller.fileChanges([{ type: "unlink", path: "a.ts" }]);
    t.controller.fileChanges([{ type: "add", path: "a.ts" }]);
    await t.settle();
    expect(t.tab("a.ts")?.notice).toBeNull();
  });

  it("asks before closing a tab with unsaved edits", async () => {
    const t = setup({ "a.ts": "a", "b.ts": "b" });
    await t.controller.open("a.ts");
    await t.controller.open("b.ts");
    t.type("a.ts", "!");
    t.controller.close("a.ts");
    expect(t.confirms).toHaveLength(1);
    expect(t.tab("a.ts")).toBeDefined();
    t.controller.close("b.ts");
    expect(t.tab("b.ts")).toBeUndefined();
  });

  it("follows renames and deletes made from the file tree", async () => {
    const t = setup({ "src/a.ts": "a", "src/b.ts": "b" });
    await t.controller.open("src/a.ts");
    await t.controller.open("src/b.ts");
    t.type("src/b.ts", "!");
    t.controller.moved("src", "lib");
    expect(t.tabs().files.map((f) => f.path)).toEqual(["lib/a.ts", "lib/b.ts"]);
    expect(t.text("lib/b.ts")).toBe("b!");
    t.controller.deleted("lib");
    expect(t.tabs().files.map((f) => [f.path, f.notice])).toEqual([["lib/b.ts", "deleted-on-disk"]]);
  });

  it("compares every open file with the disk after a resync", async () => {
    const t = setup({ "a.ts": "a" });
    await t.controller.open("a.ts");
    t.disk.change("a.ts", "changed while offline");
    t.controller.resync();
    await t.settle();
    expect(t.text("a.ts")).toBe("changed while offline");
  });

  it("turns every file read-only when access ends, and hands back the unsaved edits the service never got", async () => {
    const t = setup({ "a.ts": "a", "b.ts": "b" });
    await t.controller.open("a.ts");
    await t.controller.open("b.ts");
    t.type("a.ts", " typed but not saved");
    expect(t.controller.endAccess()).toEqual([{ path: "a.ts", text: "a typed but not saved" }]);
    // Nothing waits to be saved (it cannot be), and nothing can be typed any more.
    expect(t.tabs().ended).toBe(true);
    expect(t.tabs().files.map((f) => f.dirty)).toEqual([false, false]);
    for (const path of ["a.ts", "b.ts"]) expect(t.controller.stateOf(path)?.readOnly).toBe(true);
    await t.controller.save("a.ts");
    expect(t.disk.writes).toEqual([]);
    // Said once.
    expect(t.controller.endAccess()).toEqual([]);
  });
});
