import { Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "vscode-languageserver-types";
import { editorDiagnostics, offsetAt, problemsOf } from "./problems";

const text = (s: string) => Text.of(s.split("\n"));

const undefinedName: Diagnostic = {
  range: { start: { line: 1, character: 6 }, end: { line: 1, character: 11 } },
  severity: 1,
  message: "undefined name 'thing'",
  source: "pyflakes",
};

describe("offsetAt", () => {
  it("finds the offset of a line and character", () => {
    expect(offsetAt(text("ab\ncdef"), { line: 1, character: 2 })).toBe(5);
  });

  it("clamps positions past the end of a line or of the text", () => {
    expect(offsetAt(text("ab\ncd"), { line: 0, character: 99 })).toBe(2);
    expect(offsetAt(text("ab\ncd"), { line: 7, character: 0 })).toBe(5);
  });
});

describe("editorDiagnostics", () => {
  it("underlines the range the server reported, with its severity", () => {
    const doc = text("import os\nprint(thing)\n");
    expect(editorDiagnostics([undefinedName], doc, doc)).toEqual([
      { from: 16, to: 21, severity: "error", message: "undefined name 'thing'", source: "pyflakes" },
    ]);
  });

  it("follows edits made after the server last saw the text", () => {
    const synced = text("import os\nprint(thing)\n");
    const current = text("# a comment\nimport os\nprint(thing)\n");
    const [moved] = editorDiagnostics([undefinedName], synced, current);
    expect(current.sliceString(moved?.from ?? 0, moved?.to ?? 0)).toBe("thing");
  });

  it("reads a missing severity as an error and maps hints", () => {
    const doc = text("x");
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    const [plain, hint] = editorDiagnostics(
      [
        { range, message: "a" },
        { range, message: "b", severity: 4 },
      ],
      doc,
      doc,
    );
    expect(plain?.severity).toBe("error");
    expect(hint?.severity).toBe("hint");
  });
});

describe("problemsOf", () => {
  it("lists problems with 1-based line and column, errors first", () => {
    const doc = text("a = 1\nb = c\n");
    const problems = problemsOf(
      "m.py",
      [
        { from: 0, to: 1, severity: "warning", message: "unused" },
        { from: 10, to: 11, severity: "error", message: "undefined name 'c'" },
      ],
      doc,
    );
    expect(problems).toEqual([
      { path: "m.py", line: 2, column: 5, offset: 10, severity: "error", message: "undefined name 'c'" },
      { path: "m.py", line: 1, column: 1, offset: 0, severity: "warning", message: "unused" },
    ]);
  });
});
