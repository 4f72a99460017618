// Step 1: node_modules installed exactly as package-lock.json says.
import { stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { repoRoot } from "./paths.mjs";
import { run } from "./run.mjs";
import { info } from "./steps.mjs";

// Touched after each install done by these scripts.
const MARKER = path.join("node_modules", ".coder-installed");
// Written by npm itself on every install: stands in for the marker after a hand-made install.
const NPM_HIDDEN_LOCKFILE = path.join("node_modules", ".package-lock.json");

async function mtimeOf(file) {
  return (await stat(file).catch(() => null))?.mtimeMs ?? null;
}

/**
 * "missing" without node_modules, "stale" when package-lock.json is newer than the last install,
 * else "current".
 */
export async function installState(root = repoRoot) {
  if ((await mtimeOf(path.join(root, "node_modules"))) === null) return "missing";
  const lastInstall =
    (await mtimeOf(path.join(root, MARKER))) ?? (await mtimeOf(path.join(root, NPM_HIDDEN_LOCKFILE))) ?? 0;
  const lockfile = await mtimeOf(path.join(root, "package-lock.json"));
  return lockfile !== null && lockfile > lastInstall ? "stale" : "current";
}

/** Runs `npm ci` when node_modules is missing or older than package-lock.json. */
export async function ensureNodeModules(root = repoRoot) {
  const state = await installState(root);
  if (state === "current") {
    info("up to date with package-lock.json");
    return;
  }
  info(state === "missing" ? "node_modules is missing: npm ci" : "package-lock.json changed: npm ci");
  const options = { cwd: root, prefix: "npm" };
  await run("npm", ["ci", "--no-audit", "--no-fund"], options).catch(() => {
    // npm ci refuses a lockfile that lacks some platform's optional packages (as one written
    // against a registry mirror that does not serve them is). npm install --no-save installs the
    // locked versions all the same and leaves package-lock.json as it is.
    info("npm ci failed: installing the locked versions with npm install --no-save");
    return run("npm", ["install", "--no-save", "--no-audit", "--no-fund"], options);
  });
  await writeFile(path.join(root, MARKER), `${new Date().toISOString()}\n`);
}
