import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchResult, round } from "../../../bench/types";

/**
 * Tools benchmarks. Each measurement runs in a child Node process that loads the sources the way
 * the `coder-tools` bin does, so timings include nothing of the parent and RSS is the tool's own.
 *  (a) grep over a generated tree of 20 000 files against raw `rg` on the same tree (p50, interleaved);
 *  (c) read of a 200-line window from the middle of a 100 MB file: time and peak RSS growth.
 */
export async function run(): Promise<BenchResult[]> {
  const base = mkdtempSync(path.join(os.tmpdir(), "coder-tools-bench-"));
  try {
    return [...(await grepVersusRipgrep(base)), ...(await readWindow(base))];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));
const register = path.join(here, "../bin/register.mjs");

/** Runs a child script with the package's loader hooks and parses the JSON it prints. */
function child<T>(script: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", register, path.join(here, script), ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    proc.on("error", reject);
    proc.on("close", (code) => {
      if (code !== 0) reject(new Error(`${script} exited with ${code}`));
      else resolve(JSON.parse(out) as T);
    });
  });
}

const FILES = 20_000;
const FILES_PER_FOLDER = 100;

/** A source-like tree: 200 folders of 100 files, a rare token in every 400th file. */
function generateTree(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const folder = path.join(root, `pkg${Math.floor(i / FILES_PER_FOLDER)}`);
    if (i % FILES_PER_FOLDER === 0) mkdirSync(folder, { recursive: true });
    const lines = [`// module ${i}`, `import { helper${i % 97} } from "./util";`];
    for (let j = 0; j < 20; j++)
      lines.push(`export function fn${j}_${i}(value: number) { return helper(value * ${j}); }`);
    if (i % 400 === 0) lines.push(`// NEEDLE_${i}: the rare token`);
    writeFileSync(path.join(folder, `file${i}.ts`), `${lines.join("\n")}\n`);
  }
  writeFileSync(path.join(root, ".gitignore"), "dist/\n");
}

async function grepVersusRipgrep(base: string): Promise<BenchResult[]> {
  const tree = path.join(base, "tree");
  mkdirSync(tree);
  generateTree(tree);
  const timings = await child<{ tool: number; rg: number; runs: number; matches: number }>("grep.child.ts", [
    tree,
    "NEEDLE_\\d+",
  ]);
  const ratio = round(timings.tool / timings.rg);
  return [
    {
      name: `grep tool, ${FILES} files (p50)`,
      value: round(timings.tool),
      unit: "ms",
      notes: `${timings.matches} matches, ${timings.runs} runs`,
    },
    { name: `raw rg, ${FILES} files (p50)`, value: round(timings.rg), unit: "ms" },
    {
      name: "grep tool / raw rg",
      value: ratio,
      unit: "x",
      ratio,
      target: "≤ 1.3",
      pass: ratio <= 1.3,
      notes: "p50 of interleaved runs on the same tree",
    },
  ];
}

const TARGET_BYTES = 100 * 1024 * 1024;

async function readWindow(base: string): Promise<BenchResult[]> {
  const file = path.join(base, "big.txt");
  const line = `${"x".repeat(70)} the quick brown fox\n`;
  const block = line.repeat(10_000);
  const fd = openSync(file, "w");
  let written = 0;
  while (written < TARGET_BYTES) written += writeSync(fd, block);
  closeSync(fd);
  const totalLines = written / Buffer.byteLength(line);
  const offset = Math.floor(totalLines / 2);
  const measured = await child<{ ms: number; peakRssDeltaMiB: number; lines: number }>("read.child.ts", [
    base,
    "big.txt",
    String(offset),
  ]);
  return [
    {
      name: "read 200-line window of a 100 MB file",
      value: round(measured.ms),
      unit: "ms",
      notes: `offset ${offset} of ${totalLines} lines; counts every line for total_lines`,
    },
    {
      name: "read 200-line window of a 100 MB file: peak RSS growth",
      value: round(measured.peakRssDeltaMiB),
      unit: "MiB",
      target: "≤ 16 MiB (the file is 100 MB)",
      pass: measured.peakRssDeltaMiB <= 16 && measured.lines === 200,
    },
  ];
}
