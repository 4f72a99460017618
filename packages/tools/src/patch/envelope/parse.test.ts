import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseEnvelope } from "./parse";

describe("parseEnvelope", () => {
  it("reads add, update (with move, context headers and End of File) and delete operations", () => {
    const result = parseEnvelope(`*** Begin Patch
*** Add File: docs/new.md
+# Title
+
+text
*** Update File: src/app.py
*** Move to: src/main.py
@@ class App:
     def run(self):
-        pass
+        serve()
@@
 tail
-last
+LAST
*** End of File
*** Delete File: old.txt
*** End Patch`);
    expect(result).toEqual({
      ok: true,
      value: [
        { kind: "add", path: "docs/new.md", lines: ["# Title", "", "text"] },
        {
          kind: "update",
          path: "src/app.py",
          moveTo: "src/main.py",
          chunks: [
            {
              context: "class App:",
              lines: [
                { op: " ", text: "    def run(self):" },
                { op: "-", text: "        pass" },
                { op: "+", text: "        serve()" },
              ],
              endOfFile: false,
            },
            {
              lines: [
                { op: " ", text: "tail" },
                { op: "-", text: "last" },
                { op: "+", text: "LAST" },
              ],
              endOfFile: true,
            },
          ],
        },
        { kind: "delete", path: "old.txt" },
      ],
    });
  });

  it("accepts a first chunk without an @@ line", () => {
    const result = parseEnvelope("*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End Patch");
    expect(result).toMatchObject({ ok: true, value: [{ chunks: [{ lines: [{ op: "-" }, { op: "+" }] }] }] });
  });

  it("takes blank lines inside a chunk as empty context and blank lines after it as separators", () => {
    const result = parseEnvelope(
      "*** Begin Patch\n*** Update File: a\n@@\n a\n\n-b\n+c\n\n\n*** Delete File: d\n*** End Patch\n",
    );
    expect(result).toMatchObject({
      ok: true,
      value: [
        { chunks: [{ lines: [{ text: "a" }, { op: " ", text: "" }, { op: "-" }, { op: "+" }] }] },
        { kind: "delete" },
      ],
    });
  });

  it("tolerates a heredoc wrapper and surrounding blank lines", () => {
    const result = parseEnvelope(
      "\napply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n\n",
    );
    expect(result).toEqual({ ok: true, value: [{ kind: "delete", path: "a" }] });
  });

  it.each([
    ["a patch without Begin Patch", "*** Update File: a\n-x\n+y\n*** End Patch"],
    ["a patch cut off before End Patch", "*** Begin Patch\n*** Update File: a\n-x\n+y"],
    ["an unknown operation", "*** Begin Patch\n*** Rename File: a\n*** End Patch"],
    ["a change line without a prefix", "*** Begin Patch\n*** Update File: a\n@@\nx\n*** End Patch"],
    ["a chunk with context only", "*** Begin Patch\n*** Update File: a\n@@\n a\n*** End Patch"],
    ["an update without changes", "*** Begin Patch\n*** Update File: a\n*** End Patch"],
    ["an operation without a path", "*** Begin Patch\n*** Delete File: \n*** End Patch"],
    ["an empty envelope", "*** Begin Patch\n*** End Patch"],
  ])("refuses %s with invalid_args", (_name, patch) => {
    expect(parseEnvelope(patch)).toMatchObject({ ok: false, error: { code: "invalid_args" } });
  });

  it("answers any input with operations or a typed error, never a throw", () => {
    const line = fc.oneof(
      fc.constantFrom(
        "*** Add File: a",
        "*** Update File: a",
        "*** Delete File: b",
        "*** Move to: c",
        "@@",
        "@@ x",
      ),
      fc.constantFrom("*** End of File", "*** Begin Patch", "*** End Patch", ""),
      fc.string().map((s) => ` ${s}`),
      fc.string().map((s) => `-${s}`),
      fc.string().map((s) => `+${s}`),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const result = parseEnvelope(["*** Begin Patch", ...lines, "*** End Patch"].join("\n"));
        if (!result.ok) expect(result.error.code).toBe("invalid_args");
        else for (const op of result.value) expect(op.path).not.toBe("");
      }),
      { numRuns: 3000 },
    );
  });
});
