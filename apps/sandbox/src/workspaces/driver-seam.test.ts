import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "../../../..");
/** The only folder that may speak to the Docker engine: the Docker driver and its own tests. */
const DOCKER_DRIVER = "apps/sandbox/src/docker/";
/** Where the project's code and tests live (benchmarks compare against raw engine calls on purpose). */
const SOURCE_ROOTS = ["apps/sandbox/src", "apps/web/src", "packages", "e2e"];
/** The one file outside it that names the Docker driver: where the configured driver is chosen. */
const CHOOSES_DRIVER = "apps/sandbox/src/create-driver.ts";
const IMPORTS_DOCKERODE = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)["']dockerode["']/;

function sourceFiles(root: string): string[] {
  return readdirSync(path.join(repo, root), { recursive: true, encoding: "utf8" })
    .map((file) => path.posix.join(root, file.split(path.sep).join("/")))
    .filter(
      (file) => /\.(?:ts|tsx|mts|mjs|js)$/.test(file) && !/(?:^|\/)(?:node_modules|dist|\.next)\//.test(file),
    );
}

describe("the driver seam", () => {
  it("keeps the Docker engine's client (dockerode) inside the Docker driver, so a new driver is one new folder", () => {
    const files = SOURCE_ROOTS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(100);
    const outside = files.filter(
      (file) =>
        !file.startsWith(DOCKER_DRIVER) &&
        IMPORTS_DOCKERODE.test(readFileSync(path.join(repo, file), "utf8")),
    );
    expect(outside).toEqual([]);
  });

  it("lets the service reach the Docker driver's modules only where the configured driver is chosen", () => {
    const service = sourceFiles("apps/sandbox/src").filter(
      (file) => !file.startsWith(DOCKER_DRIVER) && !/\.test\.ts$|\/testing\//.test(file),
    );
    const reachesDocker = service.filter((file) => {
      const specifiers = readFileSync(path.join(repo, file), "utf8").matchAll(/from\s*["'](\.[^"']+)["']/g);
      return [...specifiers].some(([, specifier = ""]) =>
        `${path.posix.join(path.posix.dirname(file), specifier)}/`.startsWith(DOCKER_DRIVER),
      );
    });
    expect(reachesDocker).toEqual([CHOOSES_DRIVER]);
  });
});
