import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolError } from "../framework/types";
import { commitWrites } from "./commit";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "coder-commit-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (name: string) => path.join(dir, name);

describe("commitWrites", () => {
  it("writes, creates (with folders) and deletes files", async () => {
    writeFileSync(at("a.txt"), "old");
    writeFileSync(at("gone.txt"), "bye");
    await commitWrites([
      { absolute: at("a.txt"), content: "new" },
      { absolute: at("deep/er/b.txt"), content: "b" },
      { absolute: at("gone.txt"), content: null },
    ]);
    expect(readFileSync(at("a.txt"), "utf8")).toBe("new");
    expect(readFileSync(at("deep/er/b.txt"), "utf8")).toBe("b");
    expect(existsSync(at("gone.txt"))).toBe(false);
  });

  it("keeps an existing file's permission bits", async () => {
    writeFileSync(at("run.sh"), "echo 1\n");
    chmodSync(at("run.sh"), 0o755);
    await commitWrites([{ absolute: at("run.sh"), content: "echo 2\n" }]);
    expect(statSync(at("run.sh")).mode & 0o777).toBe(0o755);
  });

  it("puts every file back as it was when a later write fails", async () => {
    writeFileSync(at("a.txt"), "original a");
    writeFileSync(at("gone.txt"), "original gone");
    chmodSync(at("gone.txt"), 0o640);
    writeFileSync(at("blocker"), "a file where a folder is needed");
    const attempt = commitWrites([
      { absolute: at("a.txt"), content: "changed a" },
      { absolute: at("gone.txt"), content: null },
      { absolute: at("fresh/new.txt"), content: "new" },
      { absolute: at("blocker/inner.txt"), content: "cannot be written" },
    ]);
    await expect(attempt).rejects.toBeInstanceOf(ToolError);
    await expect(attempt).rejects.toMatchObject({
      code: "io_error",
      message: expect.stringContaining("no file was changed"),
    });
    expect(readFileSync(at("a.txt"), "utf8")).toBe("original a");
    expect(readFileSync(at("gone.txt"), "utf8")).toBe("original gone");
    expect(statSync(at("gone.txt")).mode & 0o777).toBe(0o640);
    expect(existsSync(at("fresh"))).toBe(false);
    expect(readFileSync(at("blocker"), "utf8")).toBe("a file where a folder is needed");
  });

  it("overwrites no file that changed after the plan read it, and puts the others back", async () => {
    writeFileSync(at("a.txt"), "planned a");
    writeFileSync(at("b.txt"), "b changed by a person after the plan");
    const attempt = commitWrites([
      { absolute: at("a.txt"), content: "patched a", original: "planned a" },
      { absolute: at("b.txt"), content: "patched b", original: "planned b" },
    ]);
    await expect(attempt).rejects.toMatchObject({
      code: "stale_file",
      message: expect.stringContaining("b.txt"),
    });
    expect(readFileSync(at("a.txt"), "utf8")).toBe("planned a");
    expect(readFileSync(at("b.txt"), "utf8")).toBe("b changed by a person after the plan");
  });

  it("leaves no temporary files behind", async () => {
    mkdirSync(at("d"));
    await commitWrites([{ absolute: at("d/x.txt"), content: "x" }]);
    expect(readFileSync(at("d/x.txt"), "utf8")).toBe("x");
    expect(readdirSync(at("d"))).toEqual(["x.txt"]);
  });
});
