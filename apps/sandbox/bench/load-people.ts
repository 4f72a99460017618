/**
 * The people of one workspace for the load bench, in a process of their own (started by
 * load-generator.ts with `fork`), so that no single generator process integrates every person's
 * updates: at 200 people one process could not keep up, and its own lag became the measured
 * latency. Each person is a Yjs client typing 5 characters a second into the shared file, with a
 * terminal streaming 10 KB/s to them. Keystroke → other person is measured here, sender and
 * receiver in this process, on this process's one monotonic clock (`performance.now()`), so no
 * clocks of two processes are ever compared. Commands and reports travel over the fork's IPC channel.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { COLLAB_TEXT } from "@coder/protocol";
import WebSocket from "ws";
import * as Y from "yjs";
import { collabSocket, type OpenDocument, openDocument } from "../src/collab/testing/collab-client";
import { until } from "../src/testing/until";

export interface PeopleOptions {
  url: string;
  cookie: string;
  workspaceId: string;
  withTerminals: boolean;
  typingEveryMs: number;
}

export type PeopleCommand = { join: number } | { measure: true } | { report: true } | { stop: true };

export interface PeopleReport {
  /** Keystroke → other person, in ms, one per delivery while measuring. */
  samples: number[];
  /** How late this process's event loop ran (99th percentile, ms): it adds to every sample. */
  lagP99: number;
  /** This process's CPU time / wall time while measuring. */
  cpu: number;
  terminalBytes: number;
  /** Collaboration frames the service sent these people while measuring (batching makes them fewer). */
  collabFrames: number;
}

export type PeopleMessage = { joined: number } | { report: PeopleReport } | { failed: string };

/** Ten 1000-byte lines a second with no process started per line: `read -t` on a FIFO is the sleep. */
const PRINTER = `f=/tmp/load$$; mkfifo $f; exec 9<>$f; s=$(printf '%0999d' 0); while :; do for i in 0 1 2 3 4 5 6 7 8 9; do echo $s; done; read -t 1 -u 9; done\r`;

const now = () => performance.now();

/**
 * Keystroke → other person: each keystroke is one Yjs item, known by its client id and clock; every
 * other person's client notes when its document got it.
 */
class KeystrokeClock {
  private readonly sent = new Map<number, number>();
  samples: number[] = [];
  measuring = false;

  private static key(client: number, clock: number): number {
    // Client ids are 32-bit, clocks stay far below 2^20 here: the key is an exact double.
    return client * 1_048_576 + clock;
  }

  typed(doc: Y.Doc, at: number, type: () => void): void {
    const clock = Y.getState(doc.store, doc.clientID);
    type();
    this.sent.set(KeystrokeClock.key(doc.clientID, clock), at);
  }

  follow(doc: Y.Doc): void {
    doc.on("afterTransaction", (tr: Y.Transaction) => {
      if (!this.measuring) return;
      const at = now();
      for (const [client, after] of tr.afterState) {
        if (client === doc.clientID) continue;
        for (let clock = tr.beforeState.get(client) ?? 0; clock < after; clock++) {
          const sentAt = this.sent.get(KeystrokeClock.key(client, clock));
          if (sentAt !== undefined) this.samples.push(at - sentAt);
        }
      }
    });
  }

  reset(): void {
    this.sent.clear();
    this.samples = [];
  }
}

/** A person's terminal: a WebSocket that acknowledges what it reads (the service's flow control) and counts it. */
async function streamingTerminal(options: PeopleOptions, name: string) {
  const ws = new WebSocket(`${options.url.replace("http", "ws")}/terminal/${options.workspaceId}/${name}`, {
    headers: { cookie: options.cookie, origin: options.url },
  });
  const state = { bytes: 0, prompt: false };
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (!isBinary) return;
    state.bytes += data.length;
    if (!state.prompt && data.toString("latin1").includes("$ ")) state.prompt = true;
    ws.send(JSON.stringify({ type: "ack", bytes: data.length }));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "resize", cols: 120, rows: 30 }));
  await until(() => state.prompt, `terminal ${name} shows a prompt`, 60_000);
  ws.send(Buffer.from(PRINTER), { binary: true });
  return { state, close: () => ws.close() };
}

interface Person {
  document: OpenDocument;
  terminal?: { state: { bytes: number } };
  close(): void;
}

async function join(
  options: PeopleOptions,
  index: number,
  keystrokes: KeystrokeClock,
  frames: { count: number },
): Promise<Person> {
  const socket = collabSocket(options.url, options.cookie, options.workspaceId, () => {
    frames.count++;
  });
  const document = openDocument(socket, "shared.txt");
  keystrokes.follow(document.doc);
  await until(() => document.provider.isSynced, `person ${index} synced`, 60_000);
  const terminal = options.withTerminals ? await streamingTerminal(options, `p${index}`) : undefined;
  const text = document.doc.getText(COLLAB_TEXT);
  // Typing starts at a random moment of the first interval, so people do not type in step.
  let typing: NodeJS.Timeout | undefined;
  const phase = setTimeout(() => {
    typing = setInterval(() => {
      keystrokes.typed(document.doc, now(), () =>
        text.insert(Math.floor(Math.random() * (text.length + 1)), "x"),
      );
    }, options.typingEveryMs);
  }, Math.random() * options.typingEveryMs);
  return {
    document,
    terminal,
    close() {
      clearTimeout(phase);
      clearInterval(typing);
      document.provider.destroy();
      socket.destroy();
      terminal?.close();
    },
  };
}

function serve(options: PeopleOptions): void {
  const keystrokes = new KeystrokeClock();
  const frames = { count: 0 };
  const people: Person[] = [];
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let measuring: { cpu: NodeJS.CpuUsage; at: number; bytes: number; frames: number } | undefined;
  const terminalBytes = () => people.reduce((n, p) => n + (p.terminal?.state.bytes ?? 0), 0);
  const tell = (message: PeopleMessage) => process.send?.(message);
  process.on("message", async (command: PeopleCommand) => {
    try {
      if ("join" in command) {
        const joining = Array.from({ length: command.join }, (_, i) =>
          join(options, people.length + i, keystrokes, frames),
        );
        people.push(...(await Promise.all(joining)));
        tell({ joined: people.length });
      } else if ("measure" in command) {
        keystrokes.reset();
        lag.reset();
        lag.enable();
        measuring = { cpu: process.cpuUsage(), at: now(), bytes: terminalBytes(), frames: frames.count };
        keystrokes.measuring = true;
      } else if ("report" in command && measuring) {
        keystrokes.measuring = false;
        lag.disable();
        const cpu = process.cpuUsage(measuring.cpu);
        tell({
          report: {
            samples: keystrokes.samples,
            lagP99: lag.percentile(99) / 1e6,
            cpu: (cpu.user + cpu.system) / 1000 / (now() - measuring.at),
            terminalBytes: terminalBytes() - measuring.bytes,
            collabFrames: frames.count - measuring.frames,
          },
        });
        measuring = undefined;
      } else if ("stop" in command) {
        for (const person of people) person.close();
        process.disconnect();
      }
    } catch (error) {
      tell({ failed: (error as Error).message });
    }
  });
}

serve(JSON.parse(process.argv[2] ?? "{}") as PeopleOptions);
