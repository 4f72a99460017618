import { describe, expect, it } from "vitest";
import { ToolError } from "../../framework/types";
import { applyChunks } from "./apply";
import { type Chunk, parseEnvelope } from "./parse";

function chunksOf(body: string): Chunk[] {
  const result = parseEnvelope(`*** Begin Patch\n*** Update File: f.py\n${body}\n*** End Patch`);
  if (!result.ok) throw new Error(result.error.message);
  const [operation] = result.value;
  return operation?.kind === "update" ? operation.chunks : [];
}

const source = `class A:
    def run(self):
        return 1

class B:
    def run(self):
        return 1
`;

describe("applyChunks", () => {
  it("applies several chunks in file order", () => {
    const out = applyChunks("a\nb\nc\nd\ne\n", chunksOf("@@\n a\n-b\n+B\n@@\n d\n-e\n+E"), "f.py");
    expect(out).toBe("a\nB\nc\nd\nE\n");
  });

  it("uses an @@ context line to choose between identical places", () => {
    const out = applyChunks(
      source,
      chunksOf("@@ class B:\n     def run(self):\n-        return 1\n+        return 2"),
      "f.py",
    );
    expect(out).toBe(source.replace(/return 1\n$/, "return 2\n"));
  });

  it("without a context line changes the first place after the previous chunk", () => {
    const out = applyChunks(
      source,
      chunksOf("@@\n     def run(self):\n-        return 1\n+        return 0"),
      "f.py",
    );
    expect(out.indexOf("return 0")).toBeLessThan(out.indexOf("class B"));
  });

  it("places an End of File chunk at the end of the file", () => {
    const out = applyChunks("x\ny\nx\ny\n", chunksOf("@@\n x\n-y\n+z\n*** End of File"), "f.py");
    expect(out).toBe("x\ny\nx\nz\n");
  });

  it("appends the added lines of a chunk without old lines, or puts them after its context line", () => {
    expect(applyChunks("a\nb\n", chunksOf("@@\n+c"), "f.py")).toBe("a\nb\nc\n");
    expect(applyChunks("a\nb\n", chunksOf("@@ a\n+between"), "f.py")).toBe("a\nbetween\nb\n");
  });

  it("matches context despite trailing spaces and typographic quotes", () => {
    const out = applyChunks('say("hi")   \nend\n', chunksOf("@@\n say(\u201Chi\u201D)\n-end\n+done"), "f.py");
    expect(out).toBe('say("hi")   \ndone\n');
  });

  it("names the file and chunk that does not apply", () => {
    const error = (() => {
      try {
        applyChunks(
          source,
          chunksOf("@@\n-        return 1\n+        return 3\n@@\n-        return 9\n+        return 4"),
          "f.py",
        );
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({
      code: "conflict",
      message: expect.stringContaining("chunk 2 of f.py does not apply"),
    });
  });

  it("refuses a context line that is not in the file", () => {
    expect(() => applyChunks(source, chunksOf("@@ class C:\n-x\n+y"), "f.py")).toThrow(
      /context line "class C:"/,
    );
  });
});
