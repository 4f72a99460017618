import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

// Three projects: fast unit tests, integration tests against the real Docker engine, and the
// whole stack in Chromium. `npm test` runs all three after scripts/setup has prepared the machine.
// Tool descriptions (`<id>.txt`), built-in skills (`SKILL.md`) and job scripts (`*.py`) are imported
// as text, the same way the esbuild bundles load them (loader "text").
const textFiles = {
  name: "text-files",
  enforce: "pre" as const,
  // `load`, not `transform`: by transform time Vite has already turned the file into an asset URL.
  load(id: string) {
    const file = id.split("?")[0] ?? id;
    if (!/\.(txt|md|py)$/.test(file)) return undefined;
    return { code: `export default ${JSON.stringify(readFileSync(file, "utf8"))};`, map: null };
  },
};

export default defineConfig({
  plugins: [textFiles],
  test: {
    projects: [
      {
        plugins: [textFiles],
        test: {
          name: "unit",
          // The database tests run on SQLite and on this run's own PostgreSQL server.
          globalSetup: ["apps/sandbox/src/db/testing/postgres-global-setup.ts"],
          include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.docker.test.ts", "**/node_modules/**"],
          testTimeout: 20_000,
        },
      },
      {
        plugins: [textFiles],
        test: {
          name: "docker",
          globalSetup: [
            "apps/sandbox/src/docker/testing/remove-stale-test-workspaces.ts",
            "apps/sandbox/src/db/testing/postgres-global-setup.ts",
          ],
          include: [
            "packages/*/src/**/*.docker.test.ts",
            "apps/*/src/**/*.docker.test.ts",
            "scripts/**/*.docker.test.ts",
          ],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
      {
        plugins: [textFiles],
        test: {
          name: "e2e",
          globalSetup: [
            "apps/sandbox/src/docker/testing/remove-stale-test-workspaces.ts",
            "apps/sandbox/src/db/testing/postgres-global-setup.ts",
          ],
          include: ["e2e/**/*.e2e.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
