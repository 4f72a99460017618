// npm packages an image needs, installed on the host into its build context (images have no npm)
// and kept between builds.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { run } from "./run.mjs";
import { info } from "./steps.mjs";

const MARKER = ".coder-installed";

/**
 * Installs `specs` (one `name@version` or a list installed together) and their dependencies into
 * `dir`/node_modules unless they are there.
 */
export async function installNpmPackage(dir, specs) {
  const list = [specs].flat();
  const spec = list.join(" ");
  const marker = path.join(dir, MARKER);
  if ((await readFile(marker, "utf8").catch(() => "")) === spec) return;
  info(`installing ${spec} into the build context`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  // Its own package.json keeps npm from treating the repository root as the project.
  await writeFile(path.join(dir, "package.json"), '{ "private": true }\n');
  await run(
    "npm",
    ["install", "--prefix", dir, ...list, "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"],
    { cwd: dir, prefix: "npm" },
  );
  await writeFile(marker, spec);
}
