// npm run bench: prepares the machine like `npm test` (engine, workspace image), then runs
// bench/run.ts, which writes bench/results.json and bench/results.md. Extra arguments pick suites
// by name (npm run bench -- spine). Plain Node until the preparation has installed node_modules.
import { repoPath, repoRoot } from "./lib/paths.mjs";
import { prepareWorkspaceImage } from "./lib/prepare.mjs";
import { run } from "./lib/run.mjs";
import { runScript, step } from "./lib/steps.mjs";

runScript(async () => {
  await prepareWorkspaceImage();
  await step("Benchmarks", () =>
    run(
      process.execPath,
      ["--import", "./packages/tools/bin/register.mjs", repoPath("bench/run.ts"), ...process.argv.slice(2)],
      { cwd: repoRoot, inherit: true },
    ),
  );
});
