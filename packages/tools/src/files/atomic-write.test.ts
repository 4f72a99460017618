import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomically } from "./atomic-write";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "atomic-write-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("writeFileAtomically", () => {
  it("replaces a file keeping its mode, and leaves no temporary file", async () => {
    const file = path.join(dir, "run.sh");
    writeFileSync(file, "old\n");
    chmodSync(file, 0o751);
    expect(await writeFileAtomically(file, "new\n", Buffer.from("old\n"))).toBe(true);
    expect(readFileSync(file, "utf8")).toBe("new\n");
    expect(statSync(file).mode & 0o777).toBe(0o751);
    expect(readdirSync(dir)).toEqual(["run.sh"]);
  });

  it("writes nothing over a file that no longer holds what was read", async () => {
    const file = path.join(dir, "a.txt");
    writeFileSync(file, "changed by a shell\n");
    expect(await writeFileAtomically(file, "mine\n", Buffer.from("as read\n"))).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("changed by a shell\n");
    expect(readdirSync(dir)).toEqual(["a.txt"]);
  });

  it("creates a file only while there is none", async () => {
    const file = path.join(dir, "new.txt");
    expect(await writeFileAtomically(file, "first\n", null)).toBe(true);
    expect(await writeFileAtomically(file, "second\n", null)).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("first\n");
    expect(readdirSync(dir)).toEqual(["new.txt"]);
  });
});
