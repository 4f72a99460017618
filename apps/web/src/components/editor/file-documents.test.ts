import { describe, expect, it } from "vitest";
import { diskReaction, FileDocuments } from "./file-documents";

function typeInto(docs: FileDocuments, path: string, text: string): boolean {
  const doc = docs.get(path);
  if (!doc) throw new Error("not open");
  return docs.update(path, doc.state.update({ changes: { from: doc.state.doc.length, insert: text } }).state);
}

describe("FileDocuments", () => {
  it("marks a file dirty when edited and clean again when the edit is undone by hand", () => {
    const docs = new FileDocuments();
    docs.create("a.ts", "const a = 1;", "v1", []);
    expect(typeInto(docs, "a.ts", "\n")).toBe(true);
    expect(docs.get("a.ts")?.dirty).toBe(true);
    expect(typeInto(docs, "a.ts", "x")).toBe(false);
    const doc = docs.get("a.ts");
    if (!doc) throw new Error("not open");
    const back = doc.state.update({ changes: { from: 12, to: doc.state.doc.length } }).state;
    expect(docs.update("a.ts", back)).toBe(true);
    expect(docs.get("a.ts")?.dirty).toBe(false);
  });

  it("is clean after a save of the current text, and still dirty if typing went on during the save", () => {
    const docs = new FileDocuments();
    docs.create("a.ts", "a", "v1", []);
    typeInto(docs, "a.ts", "b");
    const sent = docs.get("a.ts")?.state.doc;
    if (!sent) throw new Error("not open");
    typeInto(docs, "a.ts", "c");
    docs.markSaved("a.ts", sent, "v2");
    expect(docs.get("a.ts")).toMatchObject({ dirty: true, version: "v2" });
    docs.markSaved("a.ts", docs.get("a.ts")?.state.doc ?? sent, "v3");
    expect(docs.get("a.ts")?.dirty).toBe(false);
  });

  it("keeps a document, with its history, under its new path after a rename", () => {
    const docs = new FileDocuments();
    const original = docs.create("src/a.ts", "a", "v1", []);
    docs.create("other.ts", "b", "v1", []);
    docs.move("src", "lib");
    expect(docs.get("src/a.ts")).toBeUndefined();
    expect(docs.get("lib/a.ts")).toBe(original);
    expect(docs.get("other.ts")).toBeDefined();
  });

  it("forgets a closed file", () => {
    const docs = new FileDocuments();
    docs.create("a.ts", "a", "v1", []);
    docs.close("a.ts");
    expect(docs.get("a.ts")).toBeUndefined();
    expect(docs.update("a.ts", docs.create("b.ts", "", "v", []).state)).toBe(false);
  });
});

describe("diskReaction", () => {
  it("does nothing when the disk holds the version we have (e.g. our own save)", () => {
    expect(diskReaction({ version: "v2", dirty: true }, "v2")).toBe("none");
  });

  it("reloads a tab without unsaved edits", () => {
    expect(diskReaction({ version: "v1", dirty: false }, "v2")).toBe("reload");
  });

  it("asks before replacing unsaved edits", () => {
    expect(diskReaction({ version: "v1", dirty: true }, "v2")).toBe("ask");
  });
});
