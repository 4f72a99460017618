import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchResult } from "../../../bench/types";
import { percentile, round } from "../../../bench/types";
import { replace } from "../src/edit/replace";

/**
 * Edit benchmarks on a generated 10 000-line TypeScript file: the replace engine for an exact
 * match, for each fuzzy strategy (each case is a model mistake only that strategy forgives) and
 * for a miss (every strategy plus the closest-region search), p50 ms per call; then the whole
 * `edit` tool call (resolve, stat, read, replace, write, diff) for the exact and the slowest case,
 * in a child process that loads the sources the way the `coder-tools` bin does.
 */
export async function run(): Promise<BenchResult[]> {
  const source = generateSource(LINES);
  const engine = CASES.map((c) => measureEngine(source, c));
  const matching = CASES.filter((c) => !["exact", "conflict", "not_found"].includes(c.expect));
  const slowest = matching.reduce((a, b) =>
    (engine[CASES.indexOf(a)]?.value ?? 0) >= (engine[CASES.indexOf(b)]?.value ?? 0) ? a : b,
  );
  const tool = await measureTool(source, [CASES[0] as Case, slowest]);
  return [...engine, ...tool];
}

const LINES = 10_000;
const RUNS = 30;
const EXACT_TARGET_MS = 5;
const FUZZY_TARGET_MS = 100;
/** The function the edits aim at, in the middle of the file. */
const K = 400;

interface Case {
  name: string;
  /** The strategy that must match, or not_found for the miss. */
  expect: string;
  old: string;
  replacement: string;
}

/**
 * ~12-line functions, alike but for their numbers, so anchors and lines repeat throughout the file;
 * after function K, two blocks with the same lines nested differently (for indentation-flexible).
 */
function generateSource(lines: number): string {
  const out: string[] = [];
  for (let f = 0; out.length < lines; f++) {
    if (f === K + 1) {
      out.push("export function ready() {", "  if (flag)", "    start();", "  finish();", "}", "");
      out.push("export function later() {", "  if (flag)", "    start();", "    finish();", "}", "");
    }
    out.push(
      `export function handler${f}(request: Request, options: Options = {}): Response {`,
      `  const value${f} = compute(request.body, ${f});`,
      `  if (value${f} > options.limit) {`,
      `    logger.warn("limit exceeded", { id: ${f}, value: value${f} });`,
      `    return respond(413, "too large");`,
      "  }",
      "",
      "  // keep the result for later requests",
      `  cache.set(request.url, value${f});`,
      `  return respond(200, String(value${f}));`,
      "}",
      "",
    );
  }
  return `${out.slice(0, lines).join("\n")}\n`;
}

const CASES: Case[] = [
  {
    name: "exact",
    expect: "exact",
    old: `    logger.warn("limit exceeded", { id: ${K}, value: value${K} });`,
    replacement: `    logger.error("limit exceeded", { id: ${K} });`,
  },
  {
    name: "line-trimmed (indentation lost)",
    expect: "line-trimmed",
    old: `if (value${K} > options.limit) {\nlogger.warn("limit exceeded", { id: ${K}, value: value${K} });\nreturn respond(413, "too large");\n}`,
    replacement: `if (value${K} > options.limit) {\n  return respond(413, "too large");\n}`,
  },
  {
    name: "block-anchor (a misremembered line)",
    expect: "block-anchor",
    old: `  if (value${K} > options.limit) {\n    logger.warn("limit was exceeded", { id: ${K}, value: value${K} });\n    return respond(413, "too large")\n  }`,
    replacement: `  if (value${K} > options.limit) {\n    return respond(413, "too large");\n  }`,
  },
  {
    name: "whitespace-normalized (spacing)",
    expect: "whitespace-normalized",
    old: `logger.warn("limit exceeded",  {  id: ${K},  value: value${K} });`,
    replacement: `logger.warn("limit exceeded", { id: ${K} });`,
  },
  {
    name: "indentation-flexible (other indent unit, two candidates)",
    expect: "indentation-flexible",
    old: "if (flag)\n    start();\nfinish();",
    replacement: "if (flag) {\n    start();\n}\nfinish();",
  },
  {
    name: "escape-normalized (escaped twice)",
    expect: "escape-normalized",
    old: `  if (value${K} > options.limit) {\\n    logger.warn(\\"limit exceeded\\", { id: ${K}, value: value${K} });`,
    replacement: `  if (value${K} > options.limit) {\\n    logger.warn(\\"over\\", { id: ${K} });`,
  },
  {
    name: "trimmed-boundary (stray blank lines)",
    expect: "trimmed-boundary",
    old: `\n\nrequest.body, ${K});\n  if (value${K} > options.limit) {\n\n`,
    replacement: `\n\nrequest.body, ${K}, true);\n  if (value${K} > options.limit) {\n\n`,
  },
  {
    name: "context-aware (two lines left out)",
    expect: "context-aware",
    old: `export function handler${K}(request: Request, options: Options = {}): Response {\n  const value${K} = compute(request.body, ${K});\n  if (value${K} > options.limit) {\n    return respond(413, "too large");\n  }\n  cache.set(request.url, value${K});\n  return respond(200, String(value${K}));\n}`,
    replacement: `export function handler${K}(request: Request): Response {\n  return respond(204, "");\n}`,
  },
  {
    name: "multi-occurrence (re-wrapped call)",
    expect: "multi-occurrence",
    old: `logger.warn(\n  "limit exceeded",\n  { id: ${K}, value: value${K} }\n);`,
    replacement: `logger.warn("limit exceeded", { id: ${K} });`,
  },
  {
    name: "adversarial: anchors that recur 800 times, all alike (conflict)",
    expect: "conflict",
    old: '}\n\nexport function handlerX(request: Request, options: Options = {}): Response {\n  const valueX = compute(request.body, X);\n  if (valueX > options.limit) {\n    logger.warn("limit exceeded", { id: X, value: valueX });\n    return respond(413, "too large");\n  }\n\n  // keep the result\n  cache.set(request.url, valueX);\n  return respond(200, String(valueX));\n}',
    replacement: "x",
  },
  {
    name: "not found (whole chain and closest region)",
    expect: "not_found",
    old: "  this text is nowhere in the file\n  and neither is this line",
    replacement: "x",
  },
];

function measureEngine(source: string, c: Case): BenchResult {
  const first = replace(source, c.old, c.replacement);
  const matched = first.ok ? first.strategy : first.code;
  const times: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const start = performance.now();
    replace(source, c.old, c.replacement);
    if (i >= 3) times.push(performance.now() - start);
  }
  const value = round(percentile(times, 50), 3);
  const limit = c.expect === "exact" ? EXACT_TARGET_MS : FUZZY_TARGET_MS;
  return {
    name: `replace engine, ${LINES} lines: ${c.name}, p50`,
    value,
    unit: "ms",
    target: `≤ ${limit} ms`,
    ratio: round(value / limit, 3),
    pass: matched === c.expect && value <= limit,
    notes: matched === c.expect ? undefined : `matched by ${matched}, expected ${c.expect}`,
  };
}

// The tool call, measured in a child process (see run()).

const here = path.dirname(fileURLToPath(import.meta.url));
const register = path.join(here, "../bin/register.mjs");

async function measureTool(source: string, cases: Case[]): Promise<BenchResult[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), "coder-edit-bench-"));
  try {
    writeFileSync(path.join(root, "big.ts"), source);
    const input = JSON.stringify(cases.map(({ old, replacement }) => ({ old, replacement })));
    const timings = await child(root, input);
    return cases.map((c, i) => {
      const limit = c.expect === "exact" ? EXACT_TARGET_MS : FUZZY_TARGET_MS;
      const { p50, strategy } = timings[i] ?? { p50: Number.NaN, strategy: "none" };
      return {
        name: `edit tool call, ${LINES} lines: ${c.name}, p50`,
        value: round(p50, 3),
        unit: "ms",
        target: `≤ ${limit} ms`,
        ratio: round(p50 / limit, 3),
        pass: strategy === c.expect && p50 <= limit,
        notes: strategy === c.expect ? undefined : `matched by ${strategy}, expected ${c.expect}`,
      };
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function child(root: string, input: string): Promise<{ p50: number; strategy: string }[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--import", register, fileURLToPath(import.meta.url), "--child", root],
      {
        stdio: ["pipe", "pipe", "inherit"],
      },
    );
    let out = "";
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    proc.on("error", reject);
    proc.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`edit bench child exited with ${code}`)),
    );
    proc.stdin.end(input);
  });
}

/** In the child: each case's edit, on a fresh copy of the file each time, timed around the call. */
async function childMain(root: string): Promise<void> {
  const { executeTool } = await import("../src/framework/execute");
  const { createToolContext } = await import("../src/framework/context");
  const { editTool } = await import("../src/tools/edit");
  const cases = JSON.parse(await readStdin()) as { old: string; replacement: string }[];
  const file = path.join(root, "big.ts");
  const original = await import("node:fs").then((fs) => fs.readFileSync(file, "utf8"));
  const ctx = createToolContext({ workspaceRoot: root });
  const report: { p50: number; strategy: string }[] = [];
  for (const c of cases) {
    const times: number[] = [];
    let strategy = "none";
    for (let i = 0; i < RUNS + 3; i++) {
      writeFileSync(file, original);
      const stat = statSync(file);
      ctx.session.files.set(file, { mtimeMs: stat.mtimeMs, size: stat.size });
      const start = performance.now();
      const { result } = await executeTool(
        editTool,
        { path: "big.ts", old_string: c.old, new_string: c.replacement },
        ctx,
      );
      if (i >= 3) times.push(performance.now() - start);
      strategy = result.ok ? String(result.strategy) : String(result.error?.code);
    }
    report.push({ p50: percentile(times, 50), strategy });
  }
  process.stdout.write(JSON.stringify(report));
}

async function readStdin(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  return text;
}

if (process.argv[2] === "--child" && process.argv[1] === fileURLToPath(import.meta.url)) {
  await childMain(process.argv[3] ?? ".");
}
