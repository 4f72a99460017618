import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LineWindow, readLineWindow as readFromHandle } from "./lines";

const limits = { maxLineChars: 2000, maxBytes: 50 * 1024 };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "coder-lines-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(content: string | Buffer): string {
  const target = path.join(dir, "f.txt");
  writeFileSync(target, content);
  return target;
}

async function readLineWindow(
  target: string,
  first: number,
  count: number,
  bounds: typeof limits,
): Promise<LineWindow> {
  const handle = await open(target, "r");
  try {
    return await readFromHandle(handle, first, count, bounds);
  } finally {
    await handle.close();
  }
}

describe("readLineWindow", () => {
  it("keeps lines whole across the 64 KB chunk boundary, CRLF split included", async () => {
    const first = "a".repeat(65_535 - 1);
    const target = file(`${first}\r\nsecond\r\nthird`);
    const window = await readLineWindow(target, 2, 5, limits);
    expect(window).toMatchObject({ lines: ["second", "third"], startLine: 2, endLine: 3, totalLines: 3 });
  });

  it("cuts a line much longer than a chunk without keeping it all", async () => {
    const target = file(`${"é".repeat(200_000)}\nafter\n`);
    const window = await readLineWindow(target, 1, 2, limits);
    expect(window.lines[0]).toBe(`${"é".repeat(2000)}... [line cut at 2000 characters]`);
    expect(window.lines[1]).toBe("after");
    expect(window.cutLines).toBe(1);
  });

  it("counts lines only when asked for none", async () => {
    const target = file("1\n2\n3\n");
    expect(await readLineWindow(target, Number.POSITIVE_INFINITY, 0, limits)).toEqual({
      lines: [],
      startLine: 0,
      endLine: 0,
      totalLines: 3,
      cutLines: 0,
    });
  });

  it("keeps empty lines", async () => {
    const target = file("a\n\n\nb\n");
    expect((await readLineWindow(target, 1, 10, limits)).lines).toEqual(["a", "", "", "b"]);
  });
});
