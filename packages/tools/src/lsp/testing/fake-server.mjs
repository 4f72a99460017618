// A small language server for tests, speaking LSP on stdio:
// - diagnostics: one per line containing ERROR (error) or WARN (warning), published after each
//   didOpen/didChange with the document's version, or pulled with --pull;
// - hover: "`word` at line:character" for the word at the position, nothing on "nothing";
// - definition: the line `def word`, null when there is none;
// Options: --pull, --silent (never publishes), --pid-file F (appends its pid when it starts),
// --crash-file F (on a hover while F exists: deletes F and exits with code 3).
import { appendFileSync, existsSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";

const { values: opts } = parseArgs({
  options: {
    pull: { type: "boolean", default: false },
    silent: { type: "boolean", default: false },
    "pid-file": { type: "string" },
    "crash-file": { type: "string" },
  },
});
if (opts["pid-file"]) appendFileSync(opts["pid-file"], `${process.pid}\n`);

const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
const documents = new Map();

function diagnosticsOf(text) {
  const found = [];
  text.split("\n").forEach((line, i) => {
    for (const [word, severity] of [
      ["ERROR", 1],
      ["WARN", 2],
    ]) {
      const at = line.indexOf(word);
      if (at >= 0) {
        found.push({
          range: { start: { line: i, character: at }, end: { line: i, character: at + word.length } },
          severity,
          source: "fake",
          message: `found ${word}`,
        });
      }
    }
  });
  return found;
}

function changed(uri, version, text) {
  documents.set(uri, text);
  if (!opts.silent && !opts.pull) {
    connection.sendNotification("textDocument/publishDiagnostics", {
      uri,
      version,
      diagnostics: diagnosticsOf(text),
    });
  }
}

function wordAt(uri, position) {
  const line = (documents.get(uri) ?? "").split("\n")[position.line] ?? "";
  const before = line.slice(0, position.character).match(/\w*$/)?.[0] ?? "";
  const after = line.slice(position.character).match(/^\w*/)?.[0] ?? "";
  return before + after;
}

connection.onRequest("initialize", () => ({
  capabilities: {
    textDocumentSync: 1,
    hoverProvider: true,
    definitionProvider: true,
    ...(opts.pull
      ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } }
      : {}),
  },
}));
connection.onNotification("initialized", () => {});
connection.onNotification("textDocument/didOpen", ({ textDocument: d }) => changed(d.uri, d.version, d.text));
connection.onNotification("textDocument/didChange", ({ textDocument: d, contentChanges }) =>
  changed(d.uri, d.version, contentChanges.at(-1).text),
);
connection.onRequest("textDocument/diagnostic", ({ textDocument }) => ({
  kind: "full",
  items: diagnosticsOf(documents.get(textDocument.uri) ?? ""),
}));
connection.onRequest("textDocument/hover", ({ textDocument, position }) => {
  const crashFile = opts["crash-file"];
  if (crashFile && existsSync(crashFile)) {
    rmSync(crashFile);
    process.exit(3);
  }
  const word = wordAt(textDocument.uri, position);
  return word && word !== "nothing"
    ? { contents: { kind: "markdown", value: `\`${word}\` at ${position.line}:${position.character}` } }
    : null;
});
connection.onRequest("textDocument/definition", ({ textDocument, position }) => {
  const word = wordAt(textDocument.uri, position);
  const lines = (documents.get(textDocument.uri) ?? "").split("\n");
  const line = lines.findIndex((l) => l.startsWith(`def ${word}`));
  if (!word || line < 0) return null;
  return {
    uri: textDocument.uri,
    range: { start: { line, character: 4 }, end: { line, character: 4 + word.length } },
  };
});
connection.onRequest("shutdown", () => null);
connection.onNotification("exit", () => process.exit(0));
connection.onClose(() => process.exit(0));
connection.listen();
