import { fork } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Convergence, PeopleCommand, PeopleMessage, PeopleOptions, PeopleReport } from "./load-people";

const repo = path.resolve(import.meta.dirname, "../../..");

/** The people of one workspace, typing and streaming from a process of their own (load-people.ts). */
export interface PeopleProcess {
  /** People who joined and are typing. */
  readonly count: number;
  /** People who joined so far, also while a join runs (for progress lines). */
  readonly joining: number;
  /** Whether the process still runs (a dead one is replaced by the bench). */
  readonly alive: boolean;
  /** `count` more people join; resolves once they are synced and their terminals stream, fails saying why some did not. */
  join(count: number): Promise<void>;
  /** Starts a measurement: samples, lag and CPU from now on. */
  measure(): void;
  report(): Promise<PeopleReport>;
  /** Stops the people; says whether the real clients converged. */
  stop(): Promise<Convergence>;
}

export async function startPeople(options: PeopleOptions): Promise<PeopleProcess> {
  const child = fork(path.join(repo, "apps/sandbox/bench/load-people.ts"), [JSON.stringify(options)], {
    cwd: repo,
    execArgv: ["--import", "./packages/tools/bin/register.mjs"],
    // Samples go back as arrays of numbers: structured clone, not JSON text.
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let alive = true;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      alive = false;
      resolve();
    }),
  );
  let count = 0;
  let joining = 0;
  child.on("message", (message: PeopleMessage) => {
    if ("joining" in message) joining = message.joining;
  });
  /** The next message of the child, or why it cannot come. */
  const next = <T>(pick: (message: PeopleMessage) => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: PeopleMessage) => {
        if ("failed" in message && !("joined" in message))
          done(() => reject(new Error(`a load generator process: ${message.failed}`)));
        const picked = pick(message);
        if (picked !== undefined) done(() => resolve(picked));
      };
      const onExit = () => done(() => reject(new Error("a load generator process exited")));
      const done = (settle: () => void) => {
        child.off("message", onMessage);
        child.off("exit", onExit);
        settle();
      };
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  const send = (command: PeopleCommand) => child.send(command);
  return {
    get count() {
      return count;
    },
    get joining() {
      return joining;
    },
    get alive() {
      return alive;
    },
    async join(more) {
      const joined = next((m) => ("joined" in m ? m : undefined));
      send({ join: more });
      const answer = await joined;
      count = answer.joined;
      if (answer.failed) throw new Error(answer.failed);
    },
    measure: () => send({ measure: true }),
    async report() {
      const report = next((m) => ("report" in m ? m.report : undefined));
      send({ report: true });
      return await report;
    },
    async stop() {
      let convergence: Convergence = { converged: false, detail: "the generator process had exited" };
      if (child.connected) {
        const stopped = next((m) => ("stopped" in m ? m.stopped : undefined));
        send({ stop: true });
        convergence = await stopped.catch((error: Error) => ({ converged: false, detail: error.message }));
      }
      await Promise.race([exited, sleep(10_000)]);
      child.kill("SIGKILL");
      return convergence;
    },
  };
}
