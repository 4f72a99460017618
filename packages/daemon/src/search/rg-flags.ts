import type { TextQuery } from "@coder/protocol";

/** ripgrep's flags for how a query matches: literal or regex, case, whole word, then the pattern. */
export function matchFlags(query: TextQuery): string[] {
  const flags = [query.caseSensitive ? "--case-sensitive" : "--ignore-case"];
  if (!query.regex) flags.push("--fixed-strings");
  if (query.wholeWord) flags.push("--word-regexp");
  // --regexp, so a pattern starting with "-" is not read as a flag.
  flags.push("--regexp", query.pattern);
  return flags;
}

/** The comma-separated globs of a field, trimmed, empty ones dropped. */
function globsOf(list: string): string[] {
  return list
    .split(",")
    .map((glob) => glob.trim())
    .filter((glob) => glob !== "");
}

/**
 * `--glob` flags for the include and exclude fields. A glob without a wildcard also names what is
 * inside it, so `src` or `node_modules` mean the folder, as people type them.
 */
export function globFlags(query: TextQuery): string[] {
  const expand = (glob: string) => (/[*?[{]/.test(glob) ? [glob] : [glob, `${glob.replace(/\/+$/, "")}/**`]);
  const flags: string[] = [];
  for (const glob of globsOf(query.include).flatMap(expand)) flags.push("--glob", glob);
  for (const glob of globsOf(query.exclude).flatMap(expand)) flags.push("--glob", `!${glob}`);
  return flags;
}

/** ripgrep's `--replace` text: in a literal search the replacement is literal too. */
export function replacementFlag(query: TextQuery, replacement: string): string[] {
  return ["--replace", query.regex ? replacement : replacement.replaceAll("$", "$$")];
}
