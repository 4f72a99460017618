import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchResult } from "./types";

/**
 * Runs every benchmark module and writes bench/results.json and bench/results.md. Each module
 * exports `run(): Promise<BenchResult[]>`; a module that fails is reported, not fatal. Naming suites
 * (`npm run bench -- sharing`) runs only those and keeps the other suites' last numbers.
 */
const repo = path.resolve(import.meta.dirname, "..");
const modules = [
  "apps/sandbox/bench/spine.bench.ts",
  "packages/tools/bench/tools.bench.ts",
  "packages/tools/bench/edit.bench.ts",
  "apps/sandbox/bench/lsp.bench.ts",
  "apps/sandbox/bench/agent.bench.ts",
  "apps/sandbox/bench/sharing.bench.ts",
  "apps/sandbox/bench/instances.bench.ts",
  "apps/sandbox/bench/lifecycle.bench.ts",
  "bench/find.bench.ts",
  "apps/sandbox/bench/import.bench.ts",
  "apps/sandbox/bench/collab.bench.ts",
  "apps/sandbox/bench/collab-agent.bench.ts",
  "apps/sandbox/bench/audit.bench.ts",
  "apps/sandbox/bench/accounts.bench.ts",
  "apps/sandbox/bench/git.bench.ts",
  "apps/sandbox/bench/preview.bench.ts",
  "apps/sandbox/bench/load.bench.ts",
];
/** Suites run together under one name (`npm run bench -- accounts`). */
const GROUPS: Record<string, string[]> = { accounts: ["audit.bench"] };
const only = process.argv.slice(2).flatMap((name) => [name, ...(GROUPS[name] ?? [])]);

type SuiteResult = BenchResult & { suite: string; at: string };
const results: SuiteResult[] = [];
const startedAt = new Date().toISOString();
const failures: { suite: string; error: string }[] = [];
for (const rel of modules) {
  if (only.length && !only.some((o) => rel.includes(o))) continue;
  const file = path.join(repo, rel);
  if (!existsSync(file)) continue;
  const suite = path.basename(rel, ".bench.ts");
  console.log(`▶ ${suite}`);
  try {
    const mod = (await import(file)) as { run: () => Promise<BenchResult[]> };
    for (const r of await mod.run()) {
      results.push({ suite, at: startedAt, ...r });
      const extra = [
        r.ratio !== undefined ? `ratio ${r.ratio}` : "",
        r.target ? `target ${r.target}` : "",
      ].filter(Boolean);
      console.log(`  ${r.pass === false ? "✗" : "✓"} ${r.name}: ${r.value} ${r.unit} ${extra.join(", ")}`);
    }
  } catch (err) {
    failures.push({ suite, error: (err as Error).stack ?? String(err) });
    console.error(`  ✗ ${suite} failed: ${(err as Error).message}`);
  }
}

// A run of some suites keeps the last numbers of the others (each row says when it was measured).
const resultsFile = path.join(repo, "bench/results.json");
if (only.length && existsSync(resultsFile)) {
  const ran = new Set(results.map((r) => r.suite));
  const previous = JSON.parse(readFileSync(resultsFile, "utf8")) as { date: string; results: SuiteResult[] };
  const kept = previous.results
    .filter((r) => !ran.has(r.suite))
    .map((r) => ({ ...r, at: r.at ?? previous.date }));
  results.unshift(...kept);
}

const machine = {
  cpus: os.cpus().length,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
};
writeFileSync(resultsFile, `${JSON.stringify({ date: startedAt, machine, results, failures }, null, 2)}\n`);
const table = [
  "| suite | benchmark | value | ratio | target | pass | measured |",
  "|---|---|---|---|---|---|---|",
  ...results.map(
    (r) =>
      `| ${r.suite} | ${r.name} | ${r.value} ${r.unit} | ${r.ratio ?? ""} | ${r.target ?? ""} | ${r.pass === undefined ? "" : r.pass ? "yes" : "no"} | ${r.at.slice(0, 16).replace("T", " ")} |`,
  ),
];
writeFileSync(
  path.join(repo, "bench/results.md"),
  `# Benchmark results\n\n${startedAt} — ${machine.cpus} cores, ${machine.memoryGiB} GiB, Node ${machine.node}\n\n${table.join("\n")}\n${failures.length ? `\nFailed suites: ${failures.map((f) => f.suite).join(", ")}\n` : ""}`,
);
console.log(`\n${table.join("\n")}\n\nwrote bench/results.json and bench/results.md`);
if (failures.length) process.exitCode = 1;
