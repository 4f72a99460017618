/**
 * The people of one workspace for the load bench, in a process of their own (started by
 * load-generator.ts with `fork`), so that no single generator process serves every person. Each
 * person types 5 characters a second into the shared file and has a terminal streaming 10 KB/s to
 * them. Most people are WirePersons (the protocol without a document of the file: the generator
 * must cost little, or it, not the service, is what the curve measures); the first REAL_CLIENTS
 * are real Yjs clients (HocuspocusProvider and a Y.Doc of the file) that, when the people stop,
 * must hold every character everyone typed and agree on the text. Keystroke → other person is
 * measured here, sender and receiver in this process, on its one monotonic clock. Commands and
 * reports travel over the fork's IPC channel.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { COLLAB_TEXT, TERMINAL_ACK_EVERY_BYTES } from "@coder/protocol";
import WebSocket from "ws";
import * as Y from "yjs";
import { collabSocket, openDocument } from "../src/collab/testing/collab-client";
import { KeystrokeClock } from "./load-keystrokes";
import { patiently } from "./load-patience";
import { WirePerson } from "./load-wire-person";

export interface PeopleOptions {
  url: string;
  cookie: string;
  workspaceId: string;
  withTerminals: boolean;
  typingEveryMs: number;
  /** A join fails only after this long without any person of this process getting further. */
  stallMs: number;
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
  /** Terminal frames the service sent these people while measuring (each a WebSocket message to read). */
  terminalFrames: number;
  /** Collaboration frames the service sent these people while measuring (batching makes them fewer). */
  collabFrames: number;
  /**
   * Keystrokes these people typed while measuring, and person-seconds they were there: a generator
   * that fell behind types fewer than the schedule asks, and offers the service less load.
   */
  typed: number;
  personSeconds: number;
}

/** Whether the real clients ended with every character the service took, and the same text. */
export interface Convergence {
  converged: boolean;
  detail: string;
  /** Keystrokes of WirePersons whose socket closed, typed after (never sent), and why the first closed. */
  neverLeft?: { keystrokes: number; people: number; why: string };
}

export type PeopleMessage =
  | { joining: number }
  | { joined: number; failed?: string }
  | { report: PeopleReport }
  | { stopped: Convergence }
  | { failed: string };

/** Real Yjs clients per workspace, which check convergence at the end. */
const REAL_CLIENTS = 2;
/** People of a process who start joining together (each opens a socket and a terminal exec). */
const JOINING_AT_ONCE = 5;

/** Ten 1000-byte lines a second with no process started per line: `read -t` on a FIFO is the sleep. */
const PRINTER = `f=/tmp/load$$; mkfifo $f; exec 9<>$f; s=$(printf '%0999d' 0); while :; do for i in 0 1 2 3 4 5 6 7 8 9; do echo $s; done; read -t 1 -u 9; done\r`;

/**
 * Steps of joining taken by the people of this process (a socket synced, a terminal opened, a
 * terminal's first bytes, its prompt): what a patient wait watches. Streaming terminals do not
 * count, or a stuck join would wait for ever beside them.
 */
const progress = { count: 0 };

/**
 * A person's terminal: a WebSocket that counts the bytes it reads (no screen) and acknowledges them
 * every TERMINAL_ACK_EVERY_BYTES, as the browser does (the service's flow control).
 */
async function streamingTerminal(options: PeopleOptions, name: string) {
  const ws = new WebSocket(`${options.url.replace("http", "ws")}/terminal/${options.workspaceId}/${name}`, {
    headers: { cookie: options.cookie, origin: options.url },
    perMessageDeflate: false,
  });
  const state = { bytes: 0, frames: 0, prompt: false, closed: undefined as string | undefined };
  let unacked = 0;
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (!isBinary) return;
    if (!state.prompt) {
      progress.count++;
      if (data.includes("$ ")) state.prompt = true;
    }
    state.bytes += data.length;
    state.frames++;
    unacked += data.length;
    if (unacked < TERMINAL_ACK_EVERY_BYTES) return;
    ws.send(JSON.stringify({ type: "ack", bytes: unacked }));
    unacked = 0;
  });
  ws.on("close", (code) => {
    state.closed = `terminal ${name} closed (${code})`;
  });
  ws.on("error", (error) => {
    state.closed = `terminal ${name}: ${error.message}`;
  });
  await patiently(
    () => ws.readyState === WebSocket.OPEN || state.closed !== undefined,
    `terminal ${name} opens`,
    () => progress.count,
    options.stallMs,
  );
  if (state.closed) throw new Error(state.closed);
  progress.count++;
  ws.send(JSON.stringify({ type: "resize", cols: 120, rows: 30 }));
  await patiently(
    () => state.prompt || state.closed !== undefined,
    `terminal ${name} shows a prompt`,
    () => progress.count,
    options.stallMs,
  );
  if (state.closed) throw new Error(state.closed);
  ws.send(Buffer.from(PRINTER), { binary: true });
  return { state, close: () => ws.close() };
}

interface Person {
  /** Its Yjs client id and how many characters it typed. */
  client: number;
  typed(): number;
  /** The file as this person's Y.Doc has it: real clients only. */
  doc?: Y.Doc;
  /** Why a WirePerson's socket ended while it typed (its later keystrokes reached no one), if it did. */
  lost(): string | undefined;
  /** A real client's socket now: connected and synced, or how long it has been trying. */
  connection(): string;
  terminal?: { state: { bytes: number; frames: number } };
  stopTyping(): void;
  close(): void;
}

/** One person's socket and document, synced: a real client or a WirePerson. */
async function collaborator(
  options: PeopleOptions,
  real: boolean,
  keystrokes: KeystrokeClock,
  frames: { count: number },
) {
  const onFrame = () => {
    frames.count++;
  };
  if (real) {
    const socket = collabSocket(options.url, options.cookie, options.workspaceId, onFrame);
    const document = openDocument(socket, "shared.txt");
    await patiently(
      () => document.provider.isSynced || document.refused() !== undefined,
      "a real client synced",
      () => progress.count,
      options.stallMs,
    );
    if (document.refused()) throw new Error(`the service refused the document: ${document.refused()}`);
    progress.count++;
    const doc = document.doc;
    const text = doc.getText(COLLAB_TEXT);
    // It reconnects by itself: what matters at the end is how often its socket closed and why.
    const closes = { count: 0, last: "", downSince: 0 };
    document.provider.on("close", ({ event }: { event: { code: number; reason: string } }) => {
      closes.count++;
      closes.last = `${event.code}${event.reason ? ` ${event.reason}` : ""}`;
      closes.downSince ||= Date.now();
    });
    document.provider.on("synced", () => {
      closes.downSince = 0;
    });
    const history = () =>
      closes.count > 0 ? `; its socket closed ${closes.count} times, last ${closes.last}` : "";
    return {
      client: doc.clientID,
      doc,
      lost: () => undefined,
      connection: () =>
        document.refused()
          ? `refused by the service (${document.refused()})${history()}`
          : document.provider.isSynced
            ? `synced${history()}`
            : `not synced for ${Math.round((Date.now() - closes.downSince) / 1000)} s (${socket.status})${history()}`,
      typed: () => Y.getState(doc.store, doc.clientID),
      type: () =>
        keystrokes.typed(doc, () => text.insert(Math.floor(Math.random() * (text.length + 1)), "x")),
      close() {
        document.provider.destroy();
        socket.destroy();
      },
    };
  }
  const person = new WirePerson(
    options.url,
    options.cookie,
    options.workspaceId,
    "shared.txt",
    keystrokes,
    onFrame,
  );
  await patiently(
    () => person.synced || person.refused !== undefined,
    "a person synced",
    () => progress.count,
    options.stallMs,
  );
  if (person.refused) throw new Error(`the collaboration socket failed: ${person.refused}`);
  progress.count++;
  return {
    client: person.client,
    doc: undefined,
    lost: () => person.refused,
    connection: () => (person.refused ? `closed: ${person.refused}` : "open"),
    typed: () => person.typedCount,
    type: () => person.type(),
    close: () => person.close(),
  };
}

async function join(
  options: PeopleOptions,
  index: number,
  keystrokes: KeystrokeClock,
  frames: { count: number },
): Promise<Person> {
  const collab = await collaborator(options, index < REAL_CLIENTS, keystrokes, frames);
  let terminal: Awaited<ReturnType<typeof streamingTerminal>> | undefined;
  try {
    terminal = options.withTerminals ? await streamingTerminal(options, `p${index}`) : undefined;
  } catch (error) {
    collab.close();
    throw error;
  }
  // Typing starts at a random moment of the first interval, so people do not type in step.
  let typing: NodeJS.Timeout | undefined;
  const phase = setTimeout(() => {
    typing = setInterval(collab.type, options.typingEveryMs);
  }, Math.random() * options.typingEveryMs);
  const stopTyping = () => {
    clearTimeout(phase);
    clearInterval(typing);
  };
  return {
    client: collab.client,
    typed: collab.typed,
    doc: collab.doc,
    lost: collab.lost,
    connection: collab.connection,
    terminal,
    stopTyping,
    close() {
      stopTyping();
      collab.close();
      terminal?.close();
    },
  };
}

/**
 * Stops the typing; then every real client must come to hold every keystroke the service took, and
 * the same text. The service took all of a real client's keystrokes (it sends what the service
 * lacks whenever it connects again) and all of a WirePerson's whose socket stayed open; of one
 * whose socket closed, what reached another person (a WirePerson does not reconnect: what it typed
 * after is counted apart, as keystrokes that never left).
 */
async function converge(people: Person[], keystrokes: KeystrokeClock, stallMs: number): Promise<Convergence> {
  for (const person of people) person.stopTyping();
  const docs = people.flatMap((p) => (p.doc ? [p.doc] : []));
  if (docs.length === 0) return { converged: false, detail: "no real client joined" };
  const taken = people.map((p) => {
    const typed = p.typed();
    const took = p.doc || !p.lost() ? typed : Math.min(typed, keystrokes.reached(p.client));
    return { client: p.client, took, neverLeft: typed - took, why: p.doc ? undefined : p.lost() };
  });
  const total = taken.reduce((n, t) => n + t.took, 0);
  const dropped = taken.filter((t) => t.why !== undefined);
  const neverLeft = dropped.reduce((n, t) => n + t.neverLeft, 0);
  const lost =
    dropped.length > 0
      ? { neverLeft: { keystrokes: neverLeft, people: dropped.length, why: dropped[0]?.why ?? "" } }
      : {};
  const apart =
    dropped.length > 0
      ? `; ${neverLeft} keystrokes of ${dropped.length} people whose socket closed never left them (${dropped[0]?.why})`
      : "";
  const missing = (doc: Y.Doc) =>
    taken.reduce((n, t) => n + Math.max(0, t.took - Y.getState(doc.store, t.client)), 0);
  const texts = () => docs.map((doc) => doc.getText(COLLAB_TEXT).toString());
  try {
    await patiently(
      () => docs.every((doc) => missing(doc) === 0) && new Set(texts()).size === 1,
      "the real clients hold every keystroke the service took and agree",
      () => docs.reduce((n, doc) => n + missing(doc), 0),
      stallMs,
    );
    return {
      converged: true,
      detail: `${docs.length} real clients hold all ${total} keystrokes the service took of ${people.length} people${apart}`,
      ...lost,
    };
  } catch (error) {
    const real = people.flatMap((p) => (p.doc ? [p] : []));
    const state = real
      .map((p, i) => `real client ${i + 1} lacks ${missing(p.doc as Y.Doc)} of them, ${p.connection()}`)
      .join("; ");
    return {
      converged: false,
      detail: `${(error as Error).message} (of ${total} keystrokes: ${state})${apart}`,
      ...lost,
    };
  }
}

function serve(options: PeopleOptions): void {
  const keystrokes = new KeystrokeClock();
  const frames = { count: 0 };
  const people: Person[] = [];
  const lag = monitorEventLoopDelay({ resolution: 10 });
  let measuring:
    | { cpu: NodeJS.CpuUsage; at: number; bytes: number; terminalFrames: number; frames: number }
    | undefined;
  const terminalBytes = () => people.reduce((n, p) => n + (p.terminal?.state.bytes ?? 0), 0);
  const terminalFrames = () => people.reduce((n, p) => n + (p.terminal?.state.frames ?? 0), 0);
  const tell = (message: PeopleMessage) => process.send?.(message);
  process.on("message", async (command: PeopleCommand) => {
    try {
      if ("join" in command) {
        const failures: string[] = [];
        let next = people.length;
        const last = people.length + command.join;
        // A few at a time, each slot taking the next person as soon as it is free.
        const slot = async () => {
          while (next < last) {
            const index = next++;
            try {
              people.push(await join(options, index, keystrokes, frames));
              tell({ joining: people.length });
            } catch (error) {
              failures.push(`person ${index}: ${(error as Error).message}`);
            }
          }
        };
        await Promise.all(Array.from({ length: JOINING_AT_ONCE }, slot));
        tell({
          joined: people.length,
          ...(failures.length > 0
            ? { failed: `${failures.length} of ${command.join} did not join (${failures[0]})` }
            : {}),
        });
      } else if ("measure" in command) {
        keystrokes.start();
        lag.reset();
        lag.enable();
        measuring = {
          cpu: process.cpuUsage(),
          at: performance.now(),
          bytes: terminalBytes(),
          terminalFrames: terminalFrames(),
          frames: frames.count,
        };
      } else if ("report" in command && measuring) {
        keystrokes.measuring = false;
        lag.disable();
        const cpu = process.cpuUsage(measuring.cpu);
        const wall = performance.now() - measuring.at;
        tell({
          report: {
            samples: keystrokes.samples,
            lagP99: lag.percentile(99) / 1e6,
            cpu: (cpu.user + cpu.system) / 1000 / wall,
            terminalBytes: terminalBytes() - measuring.bytes,
            terminalFrames: terminalFrames() - measuring.terminalFrames,
            collabFrames: frames.count - measuring.frames,
            typed: keystrokes.typedWhileMeasuring,
            personSeconds: (people.length * wall) / 1000,
          },
        });
        measuring = undefined;
      } else if ("stop" in command) {
        tell({ stopped: await converge(people, keystrokes, options.stallMs) });
        for (const person of people) person.close();
        process.disconnect();
      }
    } catch (error) {
      tell({ failed: (error as Error).message });
    }
  });
}

serve(JSON.parse(process.argv[2] ?? "{}") as PeopleOptions);
