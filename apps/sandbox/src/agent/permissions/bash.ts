/**
 * Shell commands as permission subjects. A compound command is judged by each command in it, so
 * an allowed `git status` cannot carry `; rm -rf ~` along, and commands inside `$(...)` or
 * backticks are judged too.
 */

const SEPARATORS = ["&&", "||", ";", "|", "&", "\n"];

/** The simple commands of a command line: split on unquoted separators, substitutions extracted. */
export function splitCommand(command: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  const push = () => {
    const trimmed = current.trim();
    if (trimmed) out.push(trimmed);
    current = "";
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] as string;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === "\\" && quote === '"') {
        current += ch + (command[i + 1] ?? "");
        i++;
        continue;
      } else if (quote === '"' && (ch === "`" || command.startsWith("$(", i))) {
        const inner = readSubstitution(command, i);
        out.push(...splitCommand(inner.body));
        current += command.slice(i, inner.end);
        i = inner.end - 1;
        continue;
      }
      current += ch;
      continue;
    }
    if (ch === "\\") {
      current += ch + (command[i + 1] ?? "");
      i++;
      continue;
    }
    if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
      continue;
    }
    if (ch === "`" || command.startsWith("$(", i)) {
      const inner = readSubstitution(command, i);
      out.push(...splitCommand(inner.body));
      current += command.slice(i, inner.end);
      i = inner.end - 1;
      continue;
    }
    const separator = SEPARATORS.find((s) => command.startsWith(s, i));
    if (separator) {
      push();
      i += separator.length - 1;
      continue;
    }
    current += ch;
  }
  push();
  return out;
}

/** The body of `$(...)` or `` `...` `` starting at `start`, and the index just past it. */
function readSubstitution(command: string, start: number): { body: string; end: number } {
  if (command[start] === "`") {
    const close = command.indexOf("`", start + 1);
    const end = close === -1 ? command.length : close + 1;
    return { body: command.slice(start + 1, close === -1 ? command.length : close), end };
  }
  let depth = 0;
  for (let i = start + 1; i < command.length; i++) {
    if (command[i] === "(") depth++;
    else if (command[i] === ")" && --depth === 0) return { body: command.slice(start + 2, i), end: i + 1 };
  }
  return { body: command.slice(start + 2), end: command.length };
}

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

/**
 * What an "always" reply to one simple command allows from then on: its program (and sub-command)
 * followed by anything, e.g. `git log --oneline -5` → `git log *`, `ls -la src` → `ls *`.
 */
export function alwaysPattern(command: string): string {
  const words = command.trim().split(/\s+/).filter(Boolean);
  const [program, second] = words;
  if (!program) return command;
  if (second && WITH_SUBCOMMAND.has(program) && /^[A-Za-z0-9][\w:.-]*$/.test(second)) {
    return `${program} ${second} *`;
  }
  return `${program} *`;
}
