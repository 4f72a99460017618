import { shown, type Word } from "./bash-words";

/** What a command runs besides itself. */
export type Inner =
  /** Another command: its words (its program first, `NAME=value` words before it for `env`). */
  | { kind: "command"; words: Word[] }
  /** Shell source: `bash -c '…'`, `eval …`, `trap '…' EXIT`. */
  | { kind: "script"; source: string }
  /** Something that cannot be told before it runs. */
  | { kind: "unknown"; why: string };

/** How a program that runs the command in its arguments reads its own options. */
interface Wrapper {
  /** Options on their own. */
  flags?: string[];
  /** Options followed by a value (`-n 5`, or `-n5` / `--adjustment=5`). */
  withValue?: string[];
  /** Words between the options and the command (`timeout DURATION cmd`). */
  operands?: number;
  /** `NAME=value` words before the command set its environment (`env`). */
  assignments?: boolean;
  /** Options with which it only looks the command up (`command -v`). */
  lookupOnly?: string[];
  /** What it runs when no command is given (`xargs` runs `echo`). */
  byDefault?: string;
}

const WRAPPERS: Record<string, Wrapper> = {
  env: {
    flags: ["-i", "--ignore-environment", "-0", "--null", "-v", "--debug"],
    withValue: ["-u", "--unset", "-C", "--chdir"],
    assignments: true,
  },
  command: { flags: ["-p"], lookupOnly: ["-v", "-V"] },
  builtin: {},
  exec: { flags: ["-c", "-l"], withValue: ["-a"] },
  nohup: {},
  nice: { withValue: ["-n", "--adjustment"] },
  setsid: { flags: ["-c", "--ctty", "-f", "--fork", "-w", "--wait"] },
  stdbuf: { withValue: ["-i", "--input", "-o", "--output", "-e", "--error"] },
  time: { flags: ["-p", "-v", "--verbose"], withValue: ["-o", "--output", "-f", "--format"] },
  timeout: {
    flags: ["--preserve-status", "--foreground", "-v", "--verbose"],
    withValue: ["-k", "--kill-after", "-s", "--signal"],
    operands: 1,
  },
  sudo: {
    flags: ["-E", "-H", "-n", "-S", "-k", "-b", "-P", "-A", "-B", "--preserve-env"],
    withValue: ["-u", "--user", "-g", "--group", "-C", "-D", "--chdir", "-h", "-p", "-r", "-t", "-U", "-T"],
  },
  doas: { flags: ["-n"], withValue: ["-u", "-C"] },
  xargs: {
    flags: ["-0", "--null", "-r", "--no-run-if-empty", "-t", "--verbose", "-p", "--interactive", "-x"],
    withValue: ["-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines", "-n"]
      .concat(["--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"])
      .concat(["-e", "--eof", "-i", "--replace", "-l"]),
    byDefault: "echo",
  },
  busybox: {},
  coproc: {},
};

/** Shells that run a script given with `-c`. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash"]);
/** Shell options that take the next word as their value. */
const SHELL_OPTIONS_WITH_VALUE = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);

/** `find`'s actions that run a command, up to `;` or `+`. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

const unknown = (why: string): Inner[] => [{ kind: "unknown", why }];

/**
 * What a command with this program and these arguments runs besides itself: the command a
 * wrapper (`env`, `xargs`, `timeout`, …) starts, the script of `bash -c`, `eval` or `trap`, the
 * commands of `find -exec`. Options this does not know make it unknown, never skipped.
 */
export function innerCommands(program: string, args: readonly Word[]): Inner[] {
  const wrapper = WRAPPERS[program];
  if (wrapper) return wrapped(program, wrapper, args);
  if (SHELLS.has(program)) return shellScript(program, args);
  if (program === "eval") return evalScript(args);
  if (program === "trap") return trapScript(args);
  if (program === "find") return findActions(args);
  return [];
}

function wrapped(program: string, wrapper: Wrapper, args: readonly Word[]): Inner[] {
  let i = 0;
  for (; i < args.length; i++) {
    const value = args[i]?.value;
    if (value === undefined) return unknown(`${program}'s arguments are only known when it runs`);
    if (value === "--") {
      i++;
      break;
    }
    if (!value.startsWith("-") || value === "-") break;
    if (wrapper.lookupOnly?.includes(value)) return [];
    if (wrapper.flags?.includes(value)) continue;
    if (wrapper.withValue?.includes(value)) {
      i++;
      continue;
    }
    if (!wrapper.withValue?.some((o) => attachedValue(o, value)))
      return unknown(`${program} ${value} is an option this cannot judge`);
  }
  const start = i;
  if (wrapper.assignments) while (i < args.length && /^[A-Za-z_]\w*=/.test(args[i]?.value ?? "")) i++;
  i += wrapper.operands ?? 0;
  if (i > args.length) return [];
  const words = [...args.slice(start, wrapper.assignments ? i : start), ...args.slice(i)];
  if (i === args.length) {
    return wrapper.byDefault ? [{ kind: "command", words: [...words, literal(wrapper.byDefault)] }] : [];
  }
  return [{ kind: "command", words }];
}

/** `-n5` for `-n`, `--signal=KILL` for `--signal`. */
function attachedValue(option: string, arg: string): boolean {
  if (option.startsWith("--")) return arg.startsWith(`${option}=`);
  return arg.length > option.length && arg.startsWith(option);
}

const literal = (value: string): Word => ({ value, text: value });

function shellScript(program: string, args: readonly Word[]): Inner[] {
  let runsString = false;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]?.value;
    if (value === undefined) return unknown(`${program}'s arguments are only known when it runs`);
    if (SHELL_OPTIONS_WITH_VALUE.has(value)) {
      i++;
      continue;
    }
    const isOption = value !== "--" && /^[-+]/.test(value) && value.length > 1;
    if (isOption && !value.startsWith("--") && value.slice(1).includes("c")) runsString = true;
    if (isOption) continue;
    const script = value === "--" ? args[i + 1] : args[i];
    if (!runsString) return [];
    if (script === undefined) return [];
    if (script.value === undefined)
      return unknown(`the script given to ${program} -c is only known when it runs`);
    return [{ kind: "script", source: script.value }];
  }
  return [];
}

function evalScript(args: readonly Word[]): Inner[] {
  if (args.some((a) => a.value === undefined)) return unknown("eval's text is only known when it runs");
  return [{ kind: "script", source: args.map(shown).join(" ") }];
}

/** `trap 'commands' SIGNAL…` runs the commands later, when a signal comes or the shell exits. */
function trapScript(args: readonly Word[]): Inner[] {
  const rest = args[0]?.value === "--" ? args.slice(1) : args;
  const [action, ...signals] = rest;
  if (!action || signals.length === 0) return [];
  if (action.value === undefined) return unknown("the commands given to trap are only known when it runs");
  if (action.value === "-" || action.value.startsWith("-")) return [];
  return [{ kind: "script", source: action.value }];
}

function findActions(args: readonly Word[]): Inner[] {
  // An argument that expands could be `-exec` itself.
  if (args.some((a) => a.value === undefined)) return unknown("find's arguments are only known when it runs");
  const inner: Inner[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_ACTIONS.has(args[i]?.value ?? "")) continue;
    let end = i + 1;
    while (end < args.length && args[end]?.value !== ";" && args[end]?.value !== "+") end++;
    const words = args.slice(i + 1, end);
    if (words.length > 0) inner.push({ kind: "command", words });
    i = end;
  }
  return inner;
}
