import { describe, expect, it } from "vitest";
import { decodeText, encodeText, toLf } from "./line-endings";

describe("decodeText / encodeText", () => {
  it("reads an LF file as LF text without a BOM", () => {
    expect(decodeText("a\nb\n")).toEqual({ text: "a\nb\n", eol: "\n", bom: false });
  });

  it("reads a CRLF file with a BOM as LF text and remembers both", () => {
    expect(decodeText("\uFEFFa\r\nb\r\n")).toEqual({ text: "a\nb\n", eol: "\r\n", bom: true });
  });

  it("picks the style most line breaks use in a mixed file", () => {
    expect(decodeText("a\r\nb\r\nc\n").eol).toBe("\r\n");
    expect(decodeText("a\nb\nc\r\n").eol).toBe("\n");
  });

  it("treats a file without line breaks as LF", () => {
    expect(decodeText("")).toEqual({ text: "", eol: "\n", bom: false });
    expect(decodeText("one line").eol).toBe("\n");
  });

  it("leaves a lone carriage return alone", () => {
    expect(decodeText("a\rb\n").text).toBe("a\rb\n");
  });

  it("writes a decoded file back byte for byte", () => {
    for (const raw of ["a\nb\n", "\uFEFFx\r\ny", "a\r\nb\r\n\r\n", "", "\uFEFF"]) {
      const { text, eol, bom } = decodeText(raw);
      expect(encodeText(text, eol, bom)).toBe(raw);
    }
  });

  it("writes text with mixed endings in the file's style", () => {
    expect(encodeText("a\r\nb\nc", "\r\n", false)).toBe("a\r\nb\r\nc");
    expect(encodeText("a\r\nb\nc", "\n", false)).toBe("a\nb\nc");
  });

  it("never doubles a BOM the text already has", () => {
    expect(encodeText("\uFEFFa", "\n", true)).toBe("\uFEFFa");
  });

  it("toLf converts CRLF only", () => {
    expect(toLf("a\r\nb\rc\n")).toBe("a\nb\rc\n");
  });
});
