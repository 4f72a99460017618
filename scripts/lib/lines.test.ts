import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { forEachLine } from "./lines.mjs";

function linesOf(chunks: string[]): Promise<string[]> {
  const stream = new PassThrough();
  const lines: string[] = [];
  forEachLine(stream, (line) => lines.push(line));
  const ended = new Promise<string[]>((resolve) => stream.on("end", () => resolve(lines)));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return ended;
}

describe("forEachLine", () => {
  it("joins lines split across chunks and drops CRLF endings", async () => {
    expect(await linesOf(["Step 1/3 : FR", "OM debian\r\nStep 2", "/3\n"])).toEqual([
      "Step 1/3 : FROM debian",
      "Step 2/3",
    ]);
  });

  it("keeps a last line that has no newline", async () => {
    expect(await linesOf(["done\npartial"])).toEqual(["done", "partial"]);
  });

  it("keeps empty lines", async () => {
    expect(await linesOf(["a\n\nb\n"])).toEqual(["a", "", "b"]);
  });
});
