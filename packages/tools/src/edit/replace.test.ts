import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replace } from "./replace";

describe("replace", () => {
  it("prefers the exact text even when a loose strategy would match elsewhere too", () => {
    const file = "  x = 1;\n  y = 2;\nz();\nx = 1;\ny = 2;\n";
    expect(replace(file, "x = 1;\ny = 2;", "w = 3;")).toMatchObject({
      ok: true,
      strategy: "exact",
      content: "  x = 1;\n  y = 2;\nz();\nw = 3;\n",
    });
  });

  it("reports a conflict naming the lines when old_string occurs more than once", () => {
    const file = "a();\nb();\na();\n";
    expect(replace(file, "a();", "c();")).toMatchObject({ ok: false, code: "conflict", lines: [1, 3] });
  });

  it("replaces every occurrence with replace_all and counts them", () => {
    const file = "a();\nb();\na();\n";
    expect(replace(file, "a();", "c();", true)).toMatchObject({
      ok: true,
      content: "c();\nb();\nc();\n",
      replacements: 2,
    });
  });

  it("with replace_all re-indents each loosely matched occurrence to its own place", () => {
    const file = "if (a) {\n  x = 1;\n  y = 2;\n}\nfunction f() {\n    x = 1;\n    y = 2;\n}\n";
    const result = replace(file, "x = 1;\ny = 2;", "z = 3;", true);
    expect(result).toMatchObject({ ok: true, strategy: "line-trimmed", replacements: 2 });
    if (result.ok) expect(result.content).toBe("if (a) {\n  z = 3;\n}\nfunction f() {\n    z = 3;\n}\n");
  });

  it("never lets a looser strategy pick a new place when a stricter one found several", () => {
    // Exact finds `count()` twice; line-trimmed alone would single out line 2. That is a guess.
    const file = "total = count();\n    count();\n";
    expect(replace(file, "count();", "tally();")).toMatchObject({
      ok: false,
      code: "conflict",
      lines: [1, 2],
    });
  });

  it("refuses an empty old_string", () => {
    expect(replace("abc", "", "x")).toMatchObject({ ok: false, code: "invalid_args" });
  });

  it("refuses an edit whose old_string and new_string are the same", () => {
    expect(replace("abc", "b", "b")).toMatchObject({ ok: false, code: "invalid_args" });
    expect(replace("a\nb", "a\r\nb", "a\nb")).toMatchObject({ ok: false, code: "invalid_args" });
  });

  it("matches an old_string with CRLF line endings and writes new_string as LF", () => {
    expect(replace("one\ntwo\nthree\n", "one\r\ntwo\r\n", "uno\r\ndos\r\n")).toMatchObject({
      ok: true,
      strategy: "exact",
      content: "uno\ndos\nthree\n",
    });
  });

  it("matches white-space-only old_string only exactly", () => {
    const file = "a\n\n\nb\n";
    expect(replace(file, "\n\n\n", "\n\n")).toMatchObject({
      ok: true,
      strategy: "exact",
      content: "a\n\nb\n",
    });
    expect(replace(file, " \n \n", "x")).toMatchObject({ ok: false, code: "not_found" });
  });

  it("does not add a line break when old_string ends with one the file's last line lacks", () => {
    const file = "first\n    last";
    expect(replace(file, "last\n", "final\n")).toMatchObject({ ok: true, content: "first\n    final" });
  });

  it("quotes the closest region of the file when nothing matches", () => {
    const file = "alpha();\nbeta(1, 2);\ngamma();\ndelta();\n";
    const result = replace(file, "beta(1, 3);\ngamma();", "x");
    expect(result).toMatchObject({
      ok: false,
      code: "not_found",
      closest: { startLine: 2, text: "beta(1, 2);\ngamma();" },
    });
    if (!result.ok) expect(result.message).toContain("line 2");
  });

  it("always answers with a result or a typed error, and exact edits equal plain replacement", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", "\n", "\\", "n", "{", "}", "(") });
    fc.assert(
      fc.property(text, text, text, fc.boolean(), (content, oldString, newString, all) => {
        const result = replace(content, oldString, newString, all);
        if (!result.ok) {
          expect(["not_found", "conflict", "invalid_args"]).toContain(result.code);
          return;
        }
        expect(result.replacements).toBeGreaterThan(0);
        if (result.strategy === "exact" && !all) {
          expect(result.content).toBe(content.replace(oldString, newString));
        }
      }),
      { numRuns: 2000 },
    );
  });
});
