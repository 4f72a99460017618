import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";

// Resolved from node_modules at run time (the service bundle leaves npm packages there), so the
// same lookup works from the sources, from dist/main.mjs and in the service's Docker image.
const packages = createRequire(import.meta.url);
const GRAMMAR_WASM = "tree-sitter-bash/tree-sitter-bash.wasm";

let loading: Promise<Parser> | undefined;

async function load(): Promise<Parser> {
  await Parser.init();
  const language = await Language.load(packages.resolve(GRAMMAR_WASM));
  return new Parser().setLanguage(language);
}

/**
 * The shell grammar (tree-sitter's bash grammar in WebAssembly), loaded once for the service's
 * life. Parsing is synchronous afterwards; trees must be deleted by whoever parses.
 */
export function bashParser(): Promise<Parser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
