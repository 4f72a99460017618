import { describe, expect, it } from "vitest";
import { closestRegion } from "./closest";
import { FileText, SearchText } from "./text-model";

const file = new FileText(
  [
    "import fs from 'node:fs';",
    "",
    "export function load(path) {",
    "  const raw = fs.readFileSync(path);",
    "  return JSON.parse(raw);",
    "}",
  ].join("\n"),
);

describe("closestRegion", () => {
  it("quotes where the lines old_string shares with the file point to", () => {
    const search = new SearchText(
      "export function load(file) {\n  const raw = fs.readFileSync(path);\n  return parse(raw);",
    );
    expect(closestRegion(file, search)).toEqual({
      startLine: 3,
      text: "export function load(path) {\n  const raw = fs.readFileSync(path);\n  return JSON.parse(raw);",
    });
  });

  it("falls back to the line most like old_string's first line when no line is shared", () => {
    const search = new SearchText("const raw = fs.readFile(path)");
    expect(closestRegion(file, search)).toEqual({
      startLine: 4,
      text: "  const raw = fs.readFileSync(path);",
    });
  });

  it("quotes nothing when no part of the file is alike", () => {
    expect(closestRegion(file, new SearchText("SELECT * FROM users WHERE id = 1"))).toBeUndefined();
  });

  it("quotes from old_string's first to its last line when both are in the file, however much the middle differs", () => {
    const search = new SearchText("export function load(path) {\n  return null;\n}");
    expect(closestRegion(file, search)).toEqual({
      startLine: 3,
      text: "export function load(path) {\n  const raw = fs.readFileSync(path);\n  return JSON.parse(raw);\n}",
    });
  });
});
