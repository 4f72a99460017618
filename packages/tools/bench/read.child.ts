// Child of tools.bench.ts: reads a 200-line window of a big file and reports time and peak RSS growth.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { createDefaultRegistry, createToolContext } from "../src/index";

const [root = ".", file = "big.txt", offset = "1"] = process.argv.slice(2);
const registry = createDefaultRegistry();
const ctx = createToolContext({ workspaceRoot: root });

// Warm the code paths on a small file so the measurement is the big read alone.
writeFileSync(path.join(root, "small.txt"), "a\nb\n");
await registry.execute("read", { path: "small.txt" }, ctx);

const peakBefore = process.resourceUsage().maxRSS;
const start = process.hrtime.bigint();
const { result } = await registry.execute("read", { path: file, offset: Number(offset), limit: 200 }, ctx);
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const peakAfter = process.resourceUsage().maxRSS;
if (!result.ok) throw new Error(JSON.stringify(result));
const lines = (result.end_line as number) - (result.start_line as number) + 1;
process.stdout.write(JSON.stringify({ ms, peakRssDeltaMiB: (peakAfter - peakBefore) / 1024, lines }));
