import { defineConfig } from "vitest/config";

// Three projects: fast unit tests, integration tests against the real Docker engine, and the
// whole stack in Chromium. `npm test` runs all three after scripts/setup has prepared the machine.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "apps/*/src/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.docker.test.ts", "**/node_modules/**"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "docker",
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
        test: {
          name: "e2e",
          include: ["e2e/**/*.e2e.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
