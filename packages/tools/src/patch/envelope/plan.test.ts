import { describe, expect, it } from "vitest";
import { memorySource } from "../testing";
import { parseEnvelope } from "./parse";
import { planEnvelope } from "./plan";

async function plan(body: string, files: Record<string, string>) {
  const parsed = parseEnvelope(`*** Begin Patch\n${body}\n*** End Patch`);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return planEnvelope(parsed.value, memorySource(files));
}

describe("planEnvelope", () => {
  it("plans an add, a move with changes and a delete", async () => {
    const result = await plan(
      "*** Add File: n.txt\n+hello\n*** Update File: a.txt\n*** Move to: b/a.txt\n@@\n-one\n+uno\n*** Delete File: gone.txt",
      { "a.txt": "one\ntwo\n", "gone.txt": "x\ny\n" },
    );
    expect(result).toEqual({
      ok: true,
      value: {
        changes: [
          { path: "n.txt", operation: "created", content: "hello\n", additions: 1, deletions: 0 },
          {
            path: "a.txt",
            operation: "renamed",
            newPath: "b/a.txt",
            content: "uno\ntwo\n",
            additions: 1,
            deletions: 1,
          },
          { path: "gone.txt", operation: "deleted", content: null, additions: 0, deletions: 2 },
        ],
        writes: [
          { absolute: "/workspace/n.txt", content: "hello\n", original: null },
          { absolute: "/workspace/a.txt", content: null, original: "one\ntwo\n" },
          { absolute: "/workspace/b/a.txt", content: "uno\ntwo\n", original: null },
          { absolute: "/workspace/gone.txt", content: null, original: "x\ny\n" },
        ],
      },
    });
  });

  it("keeps a CRLF file's line endings and BOM", async () => {
    const result = await plan("*** Update File: w.txt\n@@\n a\n-b\n+c", { "w.txt": "\uFEFFa\r\nb\r\n" });
    expect(result).toMatchObject({ ok: true, value: { writes: [{ content: "\uFEFFa\r\nc\r\n" }] } });
  });

  it.each([
    ["adding a file that exists", "*** Add File: a.txt\n+x", "conflict"],
    ["updating a file that does not exist", "*** Update File: nope.txt\n@@\n-a\n+b", "not_found"],
    ["deleting a file that does not exist", "*** Delete File: nope.txt", "not_found"],
    [
      "moving onto a file that exists",
      "*** Update File: a.txt\n*** Move to: b.txt\n@@\n-one\n+1",
      "conflict",
    ],
    [
      "a chunk that does not apply after a good one",
      "*** Update File: a.txt\n@@\n-one\n+1\n*** Update File: b.txt\n@@\n-zzz\n+y",
      "conflict",
    ],
    [
      "a move target outside the workspace",
      "*** Update File: a.txt\n*** Move to: ../out.txt\n@@\n-one\n+1",
      "permission_denied",
    ],
  ])("fails on %s", async (_name, body, code) => {
    expect(await plan(body, { "a.txt": "one\n", "b.txt": "b\n" })).toMatchObject({
      ok: false,
      error: { code },
    });
  });
});
