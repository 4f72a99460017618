// npm test: prepares the machine, then runs Biome, the type check, the import rules and every Vitest project.
// Extra arguments go to Vitest (npm test -- --project unit). All of them run; the exit code is
// the first failure's. Plain Node with no dependencies: it runs before node_modules exists.
import { repoPath, repoRoot } from "./lib/paths.mjs";
import { prepare } from "./lib/prepare.mjs";
import { CommandError, run } from "./lib/run.mjs";
import { runScript, step } from "./lib/steps.mjs";

const bin = (name) => repoPath("node_modules", ".bin", name);

/** dependency-cruiser over every folder with code, by the rules in .dependency-cruiser.cjs. */
const DEPCRUISE_ARGS = ["apps", "packages", "scripts", "e2e", "bench", "--config", ".dependency-cruiser.cjs"];

const CHECKS = [
  { title: "Biome", command: bin("biome"), args: ["check", "."] },
  { title: "TypeScript", command: bin("tsc"), args: ["-p", "."] },
  { title: "Import rules", command: bin("depcruise"), args: DEPCRUISE_ARGS },
  { title: "Vitest", command: bin("vitest"), args: ["run", ...process.argv.slice(2)] },
];

runScript(async () => {
  await prepare({ forTests: true });
  let firstFailure = 0;
  for (const { title, command, args } of CHECKS) {
    await step(title, () => run(command, args, { cwd: repoRoot, inherit: true })).catch((error) => {
      if (!(error instanceof CommandError)) throw error;
      if (firstFailure === 0) firstFailure = error.exitCode;
    });
  }
  return firstFailure;
});
