// Step 6: the production build of the web UI, redone only when its inputs changed.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { hashTree } from "./hash.mjs";
import { repoRoot } from "./paths.mjs";
import { run } from "./run.mjs";
import { info } from "./steps.mjs";

const INPUTS = ["apps/web", "packages/protocol", "package-lock.json"];
// Build output and files that the build itself writes.
const NOT_INPUTS = ["node_modules", ".next", "next-env.d.ts", "tsconfig.tsbuildinfo"];
const MARKER = path.join("apps", "web", ".next", "coder-build-hash");

/** The hash of what the web build reads. */
export function webInputsHash(root = repoRoot) {
  return hashTree(root, INPUTS, { ignore: NOT_INPUTS });
}

/** True when the last build recorded the current inputs. */
export async function isWebBuildCurrent(root = repoRoot) {
  const built = await readFile(path.join(root, MARKER), "utf8").catch(() => null);
  return built === (await webInputsHash(root));
}

/** Runs `next build` for @coder/web unless its inputs are unchanged since the last build. */
export async function ensureWebBuild(root = repoRoot) {
  if (await isWebBuildCurrent(root)) {
    info("up to date");
    return;
  }
  info("next build (inputs changed since the last build)");
  await run("npm", ["run", "build", "-w", "@coder/web"], {
    cwd: root,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    prefix: "next",
  });
  // Hashed after the build: next build may adjust its own inputs (tsconfig.json) the first time.
  await writeFile(path.join(root, MARKER), await webInputsHash(root));
}
