import { StreamLanguage, type StreamParser } from "@codemirror/language";
import type { Extension } from "@codemirror/state";
import { baseName } from "../../lib/paths/workspace-path";

/**
 * Syntax highlighting by file name. Each language loads on first use, so the editor bundle does
 * not carry every grammar.
 */

const LOADERS = {
  javascript: async () => (await import("@codemirror/lang-javascript")).javascript(),
  jsx: async () => (await import("@codemirror/lang-javascript")).javascript({ jsx: true }),
  typescript: async () => (await import("@codemirror/lang-javascript")).javascript({ typescript: true }),
  tsx: async () => (await import("@codemirror/lang-javascript")).javascript({ typescript: true, jsx: true }),
  python: async () => (await import("@codemirror/lang-python")).python(),
  json: async () => (await import("@codemirror/lang-json")).json(),
  markdown: async () => (await import("@codemirror/lang-markdown")).markdown(),
  html: async () => (await import("@codemirror/lang-html")).html(),
  css: async () => (await import("@codemirror/lang-css")).css(),
  yaml: async () => (await import("@codemirror/lang-yaml")).yaml(),
  shell: async () => legacy((await import("@codemirror/legacy-modes/mode/shell")).shell),
  toml: async () => legacy((await import("@codemirror/legacy-modes/mode/toml")).toml),
  go: async () => legacy((await import("@codemirror/legacy-modes/mode/go")).go),
  rust: async () => legacy((await import("@codemirror/legacy-modes/mode/rust")).rust),
  ruby: async () => legacy((await import("@codemirror/legacy-modes/mode/ruby")).ruby),
  c: async () => legacy((await import("@codemirror/legacy-modes/mode/clike")).c),
  cpp: async () => legacy((await import("@codemirror/legacy-modes/mode/clike")).cpp),
  java: async () => legacy((await import("@codemirror/legacy-modes/mode/clike")).java),
  kotlin: async () => legacy((await import("@codemirror/legacy-modes/mode/clike")).kotlin),
  csharp: async () => legacy((await import("@codemirror/legacy-modes/mode/clike")).csharp),
  sql: async () => legacy((await import("@codemirror/legacy-modes/mode/sql")).standardSQL),
  lua: async () => legacy((await import("@codemirror/legacy-modes/mode/lua")).lua),
  dockerfile: async () => legacy((await import("@codemirror/legacy-modes/mode/dockerfile")).dockerFile),
  properties: async () => legacy((await import("@codemirror/legacy-modes/mode/properties")).properties),
  diff: async () => legacy((await import("@codemirror/legacy-modes/mode/diff")).diff),
  xml: async () => legacy((await import("@codemirror/legacy-modes/mode/xml")).xml),
  cmake: async () => legacy((await import("@codemirror/legacy-modes/mode/cmake")).cmake),
} satisfies Record<string, () => Promise<Extension>>;

export type LanguageId = keyof typeof LOADERS;

const BY_EXTENSION: Record<string, LanguageId> = {
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "jsx",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  py: "python",
  pyi: "python",
  json: "json",
  jsonc: "json",
  md: "markdown",
  markdown: "markdown",
  html: "html",
  htm: "html",
  css: "css",
  yaml: "yaml",
  yml: "yaml",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  toml: "toml",
  go: "go",
  rs: "rust",
  rb: "ruby",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  cs: "csharp",
  sql: "sql",
  lua: "lua",
  ini: "properties",
  cfg: "properties",
  properties: "properties",
  env: "properties",
  diff: "diff",
  patch: "diff",
  xml: "xml",
  svg: "xml",
};

/** Files known by their whole name rather than an extension. */
const BY_NAME: Record<string, LanguageId> = {
  dockerfile: "dockerfile",
  ".bashrc": "shell",
  ".bash_profile": "shell",
  ".profile": "shell",
  ".zshrc": "shell",
  ".env": "properties",
  ".gitconfig": "properties",
  "cmakelists.txt": "cmake",
};

export function languageFor(path: string): LanguageId | null {
  const name = baseName(path).toLowerCase();
  const byName = BY_NAME[name];
  if (byName) return byName;
  if (name.startsWith("dockerfile.") || name.endsWith(".dockerfile")) return "dockerfile";
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1)] ?? null;
}

/** The highlighting extension for `path`, or none for plain text. */
export async function loadLanguageFor(path: string): Promise<Extension> {
  const id = languageFor(path);
  return id ? LOADERS[id]() : [];
}

/** A CodeMirror 5 mode from legacy-modes, for languages without a Lezer grammar here. */
const legacy = (parser: StreamParser<unknown>): Extension => StreamLanguage.define(parser);
