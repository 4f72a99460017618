/** git's options before its sub-command that take the next word as their value. */
const GIT_OPTIONS_WITH_VALUE = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--exec-path",
]);

/**
 * git's sub-commands known never to push (nor to run a command line of their own choosing that
 * could). Anything else may: `push`, `send-pack`, an alias from the repository's configuration
 * (`git p` with `alias.p = push`), or a command we do not know.
 */
const NEVER_PUSHES = new Set([
  "add",
  "am",
  "annotate",
  "apply",
  "archive",
  "blame",
  "branch",
  "bundle",
  "cat-file",
  "check-attr",
  "check-ignore",
  "checkout",
  "cherry",
  "cherry-pick",
  "clean",
  "clone",
  "commit",
  "commit-tree",
  "config",
  "count-objects",
  "describe",
  "diff",
  "diff-files",
  "diff-index",
  "diff-tree",
  "fetch",
  "for-each-ref",
  "format-patch",
  "fsck",
  "gc",
  "grep",
  "hash-object",
  "help",
  "init",
  "log",
  "ls-files",
  "ls-remote",
  "ls-tree",
  "merge",
  "merge-base",
  "mv",
  "name-rev",
  "notes",
  "pull",
  "range-diff",
  "read-tree",
  "reflog",
  "remote",
  "reset",
  "restore",
  "rev-list",
  "rev-parse",
  "revert",
  "rm",
  "shortlog",
  "show",
  "show-branch",
  "show-ref",
  "sparse-checkout",
  "stash",
  "status",
  "switch",
  "symbolic-ref",
  "tag",
  "update-index",
  "update-ref",
  "var",
  "verify-commit",
  "version",
  "whatchanged",
  "worktree",
  "write-tree",
]);

/** Sub-commands that run a command line given to them (`rebase --exec`, `bisect run`, `submodule foreach`). */
function runsGivenCommands(subcommand: string, rest: readonly string[]): boolean {
  if (subcommand === "rebase") return rest.some((w) => w === "-x" || w.startsWith("--exec"));
  if (subcommand === "bisect") return rest[0] === "run";
  return false;
}

/**
 * Whether one simple command (its words after any `NAME=value`) may push with git: then the agent
 * asks every time, whatever the rules or an earlier "always" say (check.ts). A `-c alias.…` or
 * `--config-env` on the command line may turn any sub-command into a push, so it counts too.
 */
export function mayPush(words: readonly string[]): boolean {
  const [program, ...args] = words;
  if (!program || program.split("/").pop() !== "git") return false;
  let i = 0;
  while (i < args.length) {
    const word = args[i] as string;
    if (!word.startsWith("-")) break;
    const [name] = word.split("=", 1) as [string];
    const value = word.includes("=") ? word.slice(name.length + 1) : args[i + 1];
    if ((name === "-c" || name === "--config-env") && /^alias\./i.test(value ?? "")) return true;
    if (name === "--config-env") return true;
    i += GIT_OPTIONS_WITH_VALUE.has(name) && !word.includes("=") ? 2 : 1;
  }
  const subcommand = args[i];
  if (subcommand === undefined) return false;
  return !NEVER_PUSHES.has(subcommand) || runsGivenCommands(subcommand, args.slice(i + 1));
}
