import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ensureNodeModules, installState } from "./node-modules.mjs";
import { CommandError } from "./run.mjs";

let root: string;
const at = (minutes: number) => new Date(Date.UTC(2025, 0, 1, 12, minutes));

async function touch(relative: string, minutes: number) {
  const file = path.join(root, relative);
  await writeFile(file, "{}");
  await utimes(file, at(minutes), at(minutes));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "coder-install-"));
  await touch("package-lock.json", 10);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("installState", () => {
  it("asks for an install on a fresh clone without node_modules", async () => {
    expect(await installState(root)).toBe("missing");
  });

  it("skips the install when the last install is newer than package-lock.json", async () => {
    await mkdir(path.join(root, "node_modules"));
    await touch("node_modules/.coder-installed", 20);
    expect(await installState(root)).toBe("current");
  });

  it("reinstalls after package-lock.json changed", async () => {
    await mkdir(path.join(root, "node_modules"));
    await touch("node_modules/.coder-installed", 5);
    expect(await installState(root)).toBe("stale");
  });

  it("trusts a hand-made npm install that is newer than package-lock.json", async () => {
    await mkdir(path.join(root, "node_modules"));
    await touch("node_modules/.package-lock.json", 11);
    expect(await installState(root)).toBe("current");
  });

  it("reinstalls a node_modules that npm never finished", async () => {
    await mkdir(path.join(root, "node_modules"));
    expect(await installState(root)).toBe("stale");
  });
});

describe("ensureNodeModules", () => {
  let bin: string;

  /** A stand-in npm that logs its arguments, fails the commands in `failing`, else "installs". */
  async function fakeNpm(failing: string[]) {
    bin = await mkdtemp(path.join(os.tmpdir(), "coder-npm-"));
    const script = `#!/bin/sh\necho "$*" >> "${bin}/calls"\ncase " ${failing.join(" ")} " in *" $1 "*) exit 1;; esac\nmkdir -p node_modules\n`;
    await writeFile(path.join(bin, "npm"), script, { mode: 0o755 });
    vi.stubEnv("PATH", `${bin}${path.delimiter}${process.env.PATH}`);
    vi.spyOn(console, "log").mockImplementation(() => {});
  }

  const calls = async () => (await readFile(path.join(bin, "calls"), "utf8")).trim().split("\n");

  afterEach(async () => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    await rm(bin, { recursive: true, force: true });
  });

  it("installs with npm ci and then counts as current", async () => {
    await fakeNpm([]);
    await ensureNodeModules(root);
    expect(await calls()).toEqual(["ci --no-audit --no-fund"]);
    expect(await installState(root)).toBe("current");
  });

  it("falls back to npm install --no-save when npm ci rejects the lockfile", async () => {
    await fakeNpm(["ci"]);
    await ensureNodeModules(root);
    expect(await calls()).toEqual(["ci --no-audit --no-fund", "install --no-save --no-audit --no-fund"]);
    expect(await installState(root)).toBe("current");
  });

  it("fails when npm can install neither way", async () => {
    await fakeNpm(["ci", "install"]);
    await expect(ensureNodeModules(root)).rejects.toBeInstanceOf(CommandError);
  });
});
