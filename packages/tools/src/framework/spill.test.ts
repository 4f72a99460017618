import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pruneSpillFolder, SPILL_BUDGET_BYTES, SPILL_MAX_AGE_MS, spillToFolder } from "./spill";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "coder-spill-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A spilled file written `ageMs` ago. */
function spilled(name: string, bytes: number, ageMs: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, Buffer.alloc(bytes, 97));
  const when = new Date(Date.now() - ageMs);
  utimesSync(file, when, when);
  return file;
}

describe("the spill folder", () => {
  it("removes outputs spilled more than a week ago when the next one is saved", async () => {
    spilled("old.txt", 10, SPILL_MAX_AGE_MS + 60_000);
    spilled("recent.txt", 10, 60_000);
    const saved = await spillToFolder(dir)("call_1", "full text");
    expect(readFileSync(saved, "utf8")).toBe("full text");
    expect(readdirSync(dir).sort()).toEqual(["call_1.txt", "recent.txt"]);
  });

  it("keeps the folder under its size budget, dropping the oldest outputs first", async () => {
    const chunk = SPILL_BUDGET_BYTES / 4;
    for (const [i, name] of ["a.txt", "b.txt", "c.txt", "d.txt"].entries()) {
      spilled(name, chunk, (10 - i) * 60_000);
    }
    await spillToFolder(dir)("call_2", "x".repeat(1000));
    expect(readdirSync(dir).sort()).toEqual(["b.txt", "c.txt", "call_2.txt", "d.txt"]);
  });

  it("never writes through a link planted under the output's name", async () => {
    const target = path.join(dir, "elsewhere");
    mkdirSync(target);
    writeFileSync(path.join(target, "victim"), "keep me");
    symlinkSync(path.join(target, "victim"), path.join(dir, "call_3.txt"));
    await spillToFolder(dir)("call_3", "spilled");
    expect(readFileSync(path.join(target, "victim"), "utf8")).toBe("keep me");
    expect(readFileSync(path.join(dir, "call_3.txt"), "utf8")).toBe("spilled");
  });

  it("keeps nothing in a link planted in place of the folder", async () => {
    const elsewhere = path.join(dir, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, path.join(dir, "spill"));
    await expect(spillToFolder(path.join(dir, "spill"))("call_4", "x")).rejects.toThrow(/not a folder/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("prunes a folder that does not exist without failing", async () => {
    await pruneSpillFolder(path.join(dir, "missing"));
    expect(existsSync(path.join(dir, "missing"))).toBe(false);
  });
});
