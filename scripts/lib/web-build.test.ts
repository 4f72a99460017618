import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isWebBuildCurrent, webInputsHash } from "./web-build.mjs";

let root: string;

async function write(relative: string, content: string) {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

async function recordBuild() {
  await write("apps/web/.next/coder-build-hash", await webInputsHash(root));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "coder-web-"));
  await write("package-lock.json", "{}");
  await write("apps/web/src/app/page.tsx", "export default function Page() {}");
  await write("packages/protocol/src/index.ts", "export {};");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("isWebBuildCurrent", () => {
  it("builds when there was no build yet", async () => {
    expect(await isWebBuildCurrent(root)).toBe(false);
  });

  it("skips the build when nothing changed since the last one", async () => {
    await recordBuild();
    expect(await isWebBuildCurrent(root)).toBe(true);
  });

  it("rebuilds after a change to the UI, the protocol package or the lockfile", async () => {
    for (const [file, content] of [
      ["apps/web/src/app/page.tsx", "export default function Page() { return null; }"],
      ["packages/protocol/src/terminal.ts", "export const x = 1;"],
      ["package-lock.json", '{"lockfileVersion":3}'],
    ] as const) {
      await recordBuild();
      await write(file, content);
      expect(await isWebBuildCurrent(root)).toBe(false);
    }
  });

  it("ignores what the build itself writes", async () => {
    await recordBuild();
    await write("apps/web/.next/server/page.js", "built");
    await write("apps/web/next-env.d.ts", "/// <reference types='next' />");
    await write("apps/web/node_modules/x/index.js", "");
    expect(await isWebBuildCurrent(root)).toBe(true);
  });
});
