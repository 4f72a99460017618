import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { supervise } from "./supervise.mjs";

const node = (script: string) => ({ command: process.execPath, args: ["-e", script] });
// Each says "ready" only once its SIGTERM handler is in place.
const SERVER = `process.on("SIGTERM", () => { console.log("bye"); process.exit(0); }); console.log("ready"); setInterval(() => {}, 1000);`;
const STUBBORN = `process.on("SIGTERM", () => console.log("ignoring SIGTERM")); console.log("ready"); setInterval(() => {}, 1000);`;

/** Runs supervise with a fake signal source; `react` sees each output line and may send signals. */
function start(
  processes: { name: string; command: string; args: string[] }[],
  react: (line: string, signals: EventEmitter) => void,
) {
  const signals = new EventEmitter();
  const lines: string[] = [];
  const exit = supervise(processes, {
    signals,
    write: (line: string) => {
      lines.push(line);
      react(line, signals);
    },
  });
  return { exit, lines };
}

function afterReady(count: number, signal: string) {
  let ready = 0;
  return (line: string, signals: EventEmitter) => {
    if (line.endsWith(" ready") && ++ready === count) signals.emit(signal, signal);
  };
}

describe("supervise", () => {
  it("prefixes each process's output with its name", async () => {
    const { exit, lines } = start(
      [
        { name: "web", ...node(SERVER) },
        { name: "sandbox", ...node(SERVER) },
      ],
      afterReady(2, "SIGTERM"),
    );
    await exit;
    expect(lines).toContain("[web    ] ready");
    expect(lines).toContain("[sandbox] ready");
  });

  it("passes Ctrl-C on to every process and exits 0 once all have stopped", async () => {
    const { exit, lines } = start(
      [
        { name: "web", ...node(SERVER) },
        { name: "sandbox", ...node(SERVER) },
      ],
      afterReady(2, "SIGINT"),
    );
    expect(await exit).toBe(0);
    expect(lines).toContain("[web    ] bye");
    expect(lines).toContain("[sandbox] bye");
  });

  it("stops the others and exits non-zero when one process dies", async () => {
    const { exit, lines } = start(
      [
        { name: "web", ...node(`console.log("crashing"); process.exit(3);`) },
        { name: "sandbox", ...node(SERVER) },
      ],
      () => {},
    );
    expect(await exit).toBe(3);
    expect(lines).toContain("[web    ] exited (code 3); stopping the others");
  });

  it("exits non-zero when a process cannot start", async () => {
    const { exit, lines } = start(
      [
        { name: "web", command: "/nonexistent/next", args: [] },
        { name: "sandbox", ...node(SERVER) },
      ],
      () => {},
    );
    expect(await exit).not.toBe(0);
    expect(lines.some((line) => line.startsWith("[web    ] could not start"))).toBe(true);
  });

  it("kills a process that ignores SIGTERM on a second Ctrl-C", async () => {
    const firstCtrlC = afterReady(1, "SIGINT");
    const { exit, lines } = start([{ name: "web", ...node(STUBBORN) }], (line, signals) => {
      firstCtrlC(line, signals);
      if (line.endsWith("ignoring SIGTERM")) signals.emit("SIGINT", "SIGINT");
    });
    expect(await exit).toBe(0);
    expect(lines).toContain("[web] ignoring SIGTERM");
  });
});
