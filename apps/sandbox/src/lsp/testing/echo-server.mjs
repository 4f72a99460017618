// A stand-in language server for proxy tests, speaking JSON-RPC with Content-Length framing on stdio:
// - any request is answered with `{ received: <the request as it arrived> }`;
// - the request `test/big` is answered with a result of 5 MB;
// - the notification `test/crash` prints "boom" on stderr and exits with code 3;
// - the notification `exit` (or stdin ending) exits with code 0.
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node.js";

const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);
connection.onRequest((method, params) =>
  method === "test/big" ? { data: "x".repeat(5 * 1024 * 1024) } : { received: { method, params } },
);
connection.onNotification((method) => {
  if (method === "test/crash") {
    process.stderr.write("boom\n");
    process.exit(3);
  }
  if (method === "exit") process.exit(0);
});
connection.onClose(() => process.exit(0));
connection.listen();
