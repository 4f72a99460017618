// npm start's two long-lived processes: run side by side, stopped together.
import { spawn } from "node:child_process";
import { forEachLine } from "./lines.mjs";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
// A process that ignores SIGTERM this long is killed.
const KILL_AFTER_MS = 10_000;

/**
 * Runs `processes` ({ name, command, args, cwd, env }) side by side, each output line behind
 * `[name]`. A stop signal to `signals` (this process: Ctrl-C, SIGTERM) is passed on to all of
 * them, and the promise resolves to 0 once all have exited; a second one kills them at once. If
 * one exits by itself, the others are stopped and the promise resolves to a non-zero code.
 */
export function supervise(processes, { signals = process, write = (line) => console.log(line) } = {}) {
  return new Promise((resolve) => {
    const running = new Set();
    let stopping = false;
    let exitCode = 0;
    let killTimer;

    const signalAll = (signal) => {
      // Each child leads its own process group, so whatever it started is signalled too.
      for (const child of running) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // already gone
        }
      }
    };
    const stopAll = () => {
      stopping = true;
      signalAll("SIGTERM");
      killTimer = setTimeout(() => signalAll("SIGKILL"), KILL_AFTER_MS);
      killTimer.unref();
    };
    const onSignal = (signal) => {
      if (stopping) {
        signalAll("SIGKILL");
        return;
      }
      write(`${signal}: stopping`);
      stopAll();
    };
    for (const signal of STOP_SIGNALS) signals.on(signal, onSignal);

    const width = Math.max(...processes.map(({ name }) => name.length));
    for (const { name, command, args, cwd, env } of processes) {
      const prefix = `[${name.padEnd(width)}]`;
      // Detached: Ctrl-C in the terminal reaches only this script, which passes it on once.
      const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      running.add(child);
      forEachLine(child.stdout, (line) => write(`${prefix} ${line}`));
      forEachLine(child.stderr, (line) => write(`${prefix} ${line}`));
      child.on("error", (error) => write(`${prefix} could not start: ${error.message}`));
      child.on("close", (code, signal) => {
        running.delete(child);
        if (!stopping) {
          write(`${prefix} exited (${signal ?? `code ${code}`}); stopping the others`);
          exitCode = typeof code === "number" && code > 0 ? code : 1;
          stopAll();
        }
        if (running.size > 0) return;
        clearTimeout(killTimer);
        for (const stopSignal of STOP_SIGNALS) signals.off(stopSignal, onSignal);
        resolve(exitCode);
      });
    }
  });
}
