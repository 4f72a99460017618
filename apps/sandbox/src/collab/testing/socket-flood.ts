/**
 * An attacker's page, as its own process so that its buffers never count as the service's memory:
 * opens many collaboration sockets at once with one login, and on each sends frames for
 * documents it never authenticates. Prints one JSON line once every socket was either closed by
 * the service or has had everything it sent read (a ping answered after the frames), then keeps
 * the open ones open until its stdin ends.
 *
 * Usage: node --import ./packages/tools/bin/register.mjs socket-flood.ts '<FloodOptions as JSON>'
 */
import { MessageType } from "@hocuspocus/server";
import * as encoding from "lib0/encoding";
import WebSocket from "ws";

export interface FloodOptions {
  url: string;
  cookie: string;
  workspaceId: string;
  sockets: number;
  framesPerSocket: number;
  frameBytes: number;
}

/** What the flood saw: how many sockets stayed open, and the codes the others were closed with. */
export interface FloodResult {
  open: number;
  closedWith: number[];
}

/** A sync update of `bytes` for `document`, which the socket never sent an Auth for. */
function unauthenticatedUpdate(document: string, bytes: number): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarString(e, document);
  encoding.writeVarUint(e, MessageType.Sync);
  encoding.writeVarUint(e, 2);
  encoding.writeVarUint8Array(e, new Uint8Array(bytes - document.length - 16));
  return encoding.toUint8Array(e);
}

async function flood(options: FloodOptions): Promise<{ result: FloodResult; sockets: WebSocket[] }> {
  const base = `${options.url.replace("http", "ws")}/collab/${options.workspaceId}`;
  const frames = Array.from({ length: options.framesPerSocket }, (_, i) =>
    unauthenticatedUpdate(`never-opened-${i}.txt`, options.frameBytes),
  );
  const sockets = Array.from(
    { length: options.sockets },
    (_, i) =>
      new WebSocket(`${base}/flood${i}`, { headers: { cookie: options.cookie, origin: options.url } }),
  );
  const outcomes = await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<number | "open">((resolve) => {
          ws.on("close", (code) => resolve(code));
          ws.on("error", () => undefined);
          ws.on("pong", () => resolve("open"));
          ws.on("open", () => {
            for (const frame of frames) ws.send(frame, () => undefined);
            ws.ping();
          });
        }),
    ),
  );
  const closedWith = outcomes.filter((o): o is number => o !== "open");
  return { result: { open: outcomes.length - closedWith.length, closedWith }, sockets };
}

const { result, sockets } = await flood(JSON.parse(process.argv[2] ?? "{}") as FloodOptions);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  for (const ws of sockets) ws.terminate();
  process.exit(0);
});
