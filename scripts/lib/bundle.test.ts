import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleDaemon, bundleSandbox } from "./bundle.mjs";
import { repoPath } from "./paths.mjs";

const exec = promisify(execFile);

// Entries live inside the repository (in the git-ignored .cache) so that they resolve packages
// from its node_modules; the daemon bundle runs from a folder outside it, as in the image.
let sourceDir: string;
let outsideDir: string;

beforeAll(async () => {
  await mkdir(repoPath(".cache"), { recursive: true });
  sourceDir = await mkdtemp(path.join(repoPath(".cache"), "bundle-test-"));
  outsideDir = await mkdtemp(path.join(os.tmpdir(), "coder-bundle-"));
  await writeFile(path.join(sourceDir, "note.txt"), "a tool description\n");
  await writeFile(path.join(sourceDir, "SKILL.md"), "# a skill\n");
  await writeFile(
    path.join(sourceDir, "daemon.ts"),
    [
      'import picomatch from "picomatch";',
      'import note from "./note.txt";',
      'console.log(picomatch.isMatch("src/a.ts", "**/*.ts"), note.trim());',
    ].join("\n"),
  );
  await writeFile(
    path.join(sourceDir, "sandbox.ts"),
    [
      'import * as protocol from "@coder/protocol";',
      'import { StreamMessageReader } from "vscode-jsonrpc/node";',
      'import { z } from "zod";',
      'import skill from "./SKILL.md";',
      "console.log(Object.keys(protocol).length > 0, typeof StreamMessageReader, z.string().parse(skill.trim()));",
    ].join("\n"),
  );
});

afterAll(async () => {
  await rm(sourceDir, { recursive: true, force: true });
  await rm(outsideDir, { recursive: true, force: true });
});

describe("bundleDaemon", () => {
  it("makes one file that runs without node_modules, CommonJS dependencies and text files inside", async () => {
    const outfile = path.join(outsideDir, "daemon.mjs");
    await bundleDaemon({ entry: path.join(sourceDir, "daemon.ts"), outfile });
    const { stdout } = await exec(process.execPath, [outfile], { cwd: outsideDir });
    expect(stdout.trim()).toBe("true a tool description");
  });

  it("fails when the entry does not exist", async () => {
    await expect(
      bundleDaemon({ entry: path.join(sourceDir, "missing.ts"), outfile: path.join(outsideDir, "x.mjs") }),
    ).rejects.toThrow(/Could not resolve|missing\.ts/);
  });
});

describe("bundleSandbox", () => {
  it("compiles the @coder packages in and leaves npm packages to node_modules", async () => {
    const outfile = path.join(sourceDir, "dist", "main.mjs");
    await bundleSandbox({ entry: path.join(sourceDir, "sandbox.ts"), outfile });
    const code = await readFile(outfile, "utf8");
    expect(code).toMatch(/from "zod"/);
    expect(code).not.toMatch(/from "@coder\/protocol"/);
    // Node needs the file name of a deep import into a package without an exports map.
    expect(code).toMatch(/from "vscode-jsonrpc\/node.js"/);
    const { stdout } = await exec(process.execPath, [outfile], { cwd: sourceDir });
    expect(stdout.trim()).toBe("true function # a skill");
  });
});
