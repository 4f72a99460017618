import { fork } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { PeopleCommand, PeopleMessage, PeopleOptions, PeopleReport } from "./load-people";

const repo = path.resolve(import.meta.dirname, "../../..");

/** The people of one workspace, typing and streaming from a process of their own (load-people.ts). */
export interface PeopleProcess {
  readonly count: number;
  /** `count` more people join; resolves once they are synced and their terminals stream. */
  join(count: number): Promise<void>;
  /** Starts a measurement: samples, lag and CPU from now on. */
  measure(): void;
  report(): Promise<PeopleReport>;
  stop(): Promise<void>;
}

export async function startPeople(options: PeopleOptions): Promise<PeopleProcess> {
  const child = fork(path.join(repo, "apps/sandbox/bench/load-people.ts"), [JSON.stringify(options)], {
    cwd: repo,
    execArgv: ["--import", "./packages/tools/bin/register.mjs"],
    // Samples go back as arrays of numbers: structured clone, not JSON text.
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let count = 0;
  /** The next message of the child, or why it cannot come. */
  const next = <T>(pick: (message: PeopleMessage) => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: PeopleMessage) => {
        if ("failed" in message) done(() => reject(new Error(`a load generator process: ${message.failed}`)));
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
    async join(more) {
      const joined = next((m) => ("joined" in m ? m.joined : undefined));
      send({ join: more });
      count = await joined;
    },
    measure: () => send({ measure: true }),
    async report() {
      const report = next((m) => ("report" in m ? m.report : undefined));
      send({ report: true });
      return await report;
    },
    async stop() {
      if (child.connected) send({ stop: true });
      await Promise.race([exited, sleep(10_000)]);
      child.kill("SIGKILL");
    },
  };
}
