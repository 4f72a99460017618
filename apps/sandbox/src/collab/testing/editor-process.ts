/**
 * A person's browser tab as its own process, so that its work (integrating the service's updates,
 * reading megabyte texts) never runs on the event loop of a service the test runs in-process: a
 * probe of that loop then measures the service alone. Opens `files` on one collaboration socket,
 * prints `{"ready":true}` once all are synced, then serves EditorRequests (one JSON line each on
 * stdin) with one EditorAnswer line each on stdout. Ends when stdin ends.
 *
 * Usage: node --import ./packages/tools/bin/register.mjs editor-process.ts '<EditorOptions as JSON>'
 */
import { createInterface } from "node:readline";
import { COLLAB_TEXT } from "@coder/protocol";
import { until } from "../../testing/until";
import { collabSocket, type OpenDocument, openDocument } from "./collab-client";
import {
  type EditorAnswer,
  type EditorOptions,
  type EditorRequest,
  type ExpectedText,
  sha256,
} from "./editor-protocol";

/**
 * Whether a document holds an expected text: its length first (no text built), its hash only
 * after the document changed, so that polling costs this process next to nothing.
 */
function textWatcher(doc: OpenDocument): (expected: ExpectedText) => boolean {
  let hash: string | undefined;
  doc.doc.on("update", () => {
    hash = undefined;
  });
  return (expected) => {
    if (doc.doc.getText(COLLAB_TEXT).length !== expected.length) return false;
    hash ??= sha256(doc.text());
    return hash === expected.sha256;
  };
}

async function serve(options: EditorOptions): Promise<void> {
  const socket = collabSocket(options.url, options.cookie, options.workspaceId);
  const docs = new Map(options.files.map((file) => [file, openDocument(socket, file)]));
  const holds = new Map([...docs].map(([file, doc]) => [file, textWatcher(doc)]));
  await until(() => [...docs.values()].every((doc) => doc.provider.isSynced), "synced", 60_000);
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  const handle = async (request: EditorRequest): Promise<void> => {
    const doc = docs.get(request.file);
    if (!doc) throw new Error(`${request.file} is not open`);
    const notesBefore = doc.notes.length;
    doc.doc.getText(COLLAB_TEXT).insert(request.at, request.text);
    await until(
      () =>
        Object.entries(request.expect).every(([file, text]) => holds.get(file)?.(text)) &&
        doc.notes.slice(notesBefore).some((note) => note.type === "disk" && note.saved),
      `every document holds what was expected and ${request.file} is saved`,
      request.timeoutMs,
    );
  };
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    const request = JSON.parse(line) as EditorRequest;
    void handle(request).then(
      () => process.stdout.write(`${JSON.stringify({ id: request.id } satisfies EditorAnswer)}\n`),
      (error: Error) =>
        process.stdout.write(
          `${JSON.stringify({ id: request.id, error: error.message } satisfies EditorAnswer)}\n`,
        ),
    );
  }
  socket.destroy();
  process.exit(0);
}

await serve(JSON.parse(process.argv[2] ?? "{}") as EditorOptions);
