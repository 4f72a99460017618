// Module hooks that load .txt, .md and .py files as modules whose default export is the text, the
// way vitest and the esbuild bundles (loader "text") treat tool descriptions, skills and job scripts.
import { readFile } from "node:fs/promises";

export async function load(url, context, nextLoad) {
  if (url.startsWith("file:") && /\.(txt|md|py)$/.test(new URL(url).pathname)) {
    const text = await readFile(new URL(url), "utf8");
    return { format: "module", source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
  }
  return nextLoad(url, context);
}
