import { describe, expect, it } from "vitest";
import { parseFileDiff } from "./unified-diff";

const twoHunks = [
  "diff --git a/notes.txt b/notes.txt",
  "index 3b18e51..b2c8f3a 100644",
  "--- a/notes.txt",
  "+++ b/notes.txt",
  "@@ -1,3 +1,3 @@",
  "-one",
  "+ONE",
  " two",
  " three",
  "@@ -10,2 +10,3 @@ section",
  " ten",
  " eleven",
  "+twelve",
  "\\ No newline at end of file",
  "",
].join("\n");

describe("a file's diff", () => {
  it("splits into hunks that show the old and the new lines with their first line numbers", () => {
    const { hunks, binary } = parseFileDiff(twoHunks);
    expect(binary).toBe(false);
    expect(hunks.map((h) => [h.oldStart, h.newStart])).toEqual([
      [1, 1],
      [10, 10],
    ]);
    expect(hunks[0]?.oldText).toBe("one\ntwo\nthree");
    expect(hunks[0]?.newText).toBe("ONE\ntwo\nthree");
    expect(hunks[1]?.newText).toBe("ten\neleven\ntwelve");
  });

  it("gives each hunk a patch of the file's header and that hunk alone", () => {
    const second = parseFileDiff(twoHunks).hunks[1]?.patch ?? "";
    expect(second).toBe(
      [
        "diff --git a/notes.txt b/notes.txt",
        "index 3b18e51..b2c8f3a 100644",
        "--- a/notes.txt",
        "+++ b/notes.txt",
        "@@ -10,2 +10,3 @@ section",
        " ten",
        " eleven",
        "+twelve",
        "\\ No newline at end of file",
        "",
      ].join("\n"),
    );
    expect(second).not.toContain("ONE");
  });

  it("says a binary file has no lines to show", () => {
    const diff = parseFileDiff(
      "diff --git a/logo.png b/logo.png\nindex 1..2 100644\nBinary files a/logo.png and b/logo.png differ\n",
    );
    expect(diff).toEqual({ hunks: [], binary: true });
  });

  it("offers no hunk of a conflict's combined diff, which cannot be staged in parts", () => {
    const combined =
      "diff --cc both.txt\nindex 1,2..0\n--- a/both.txt\n+++ b/both.txt\n@@@ -1,1 -1,1 +1,5 @@@\n++<<<<<<< HEAD\n + ours\n";
    expect(parseFileDiff(combined)).toEqual({ hunks: [], binary: false });
  });

  it("has no hunks when nothing changed", () => {
    expect(parseFileDiff("")).toEqual({ hunks: [], binary: false });
  });
});
