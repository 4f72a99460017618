/** Programs whose first argument is a sub-command that changes what they do (`git log`, `npm test`). */
const WITH_SUBCOMMAND = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "npx",
  "cargo",
  "go",
  "docker",
  "kubectl",
  "pip",
  "pip3",
  "apt",
  "apt-get",
  "brew",
  "uv",
  "poetry",
  "bun",
  "deno",
  "dotnet",
  "gh",
]);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/**
 * What an "always" reply to one simple command (its words, as judged) allows from then on: its
 * program (and sub-command) followed by anything, e.g. `git log --oneline -5` → `git log *`,
 * `ls -la src` → `ls *`. Variables set for the command (`PATH=/tmp/x cat`) change what it runs,
 * so they stay as written; a bare assignment (`x=1`) is allowed only as written. None when those
 * words hold a wildcard character, which a pattern cannot say literally.
 */
export function alwaysPattern(words: readonly string[]): string | undefined {
  const start = words.findIndex((w) => !ASSIGNMENT.test(w));
  const assignments = start === -1 ? words : words.slice(0, start);
  const [program, second] = start === -1 ? [] : words.slice(start);
  const sub = program && second && WITH_SUBCOMMAND.has(program) && /^[A-Za-z0-9][\w:.-]*$/.test(second);
  const fixed = [...assignments, ...(program ? [program] : []), ...(sub ? [second] : [])];
  if (fixed.some((w) => /[*?]/.test(w))) return undefined;
  return program ? `${fixed.join(" ")} *` : fixed.join(" ");
}
