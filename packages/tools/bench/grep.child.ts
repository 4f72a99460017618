// Child of tools.bench.ts: times the grep tool and raw rg on the same tree, interleaved.
import { spawn } from "node:child_process";
import { percentile } from "../../../bench/types";
import { createDefaultRegistry, createToolContext } from "../src/index";

const [root = ".", pattern = "x"] = process.argv.slice(2);
const RUNS = 15;
const WARMUP = 2;

function rawRipgrep(): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn("rg", ["--hidden", "--no-require-git", "--regexp", pattern], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    });
    proc.stdout.resume();
    proc.on("error", reject);
    proc.on("close", () => resolve());
  });
}

const registry = createDefaultRegistry();
const ctx = createToolContext({ workspaceRoot: root });
let matches = 0;
const toolCall = async () => {
  const { result } = await registry.execute("grep", { pattern }, ctx);
  if (!result.ok) throw new Error(JSON.stringify(result));
  matches = result.count as number;
};

async function time(fn: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const tool: number[] = [];
const rg: number[] = [];
for (let i = 0; i < WARMUP + RUNS; i++) {
  // Alternate which goes first so neither always gets the warmer cache.
  const pair = i % 2 === 0 ? [toolCall, rawRipgrep] : [rawRipgrep, toolCall];
  const [first, second] = [
    await time(pair[0] as () => Promise<void>),
    await time(pair[1] as () => Promise<void>),
  ];
  if (i < WARMUP) continue;
  tool.push(i % 2 === 0 ? first : second);
  rg.push(i % 2 === 0 ? second : first);
}
process.stdout.write(
  JSON.stringify({ tool: percentile(tool, 50), rg: percentile(rg, 50), runs: RUNS, matches }),
);
