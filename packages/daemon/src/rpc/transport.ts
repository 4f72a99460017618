import type { Readable, Writable } from "node:stream";
import { writeOncePerTick } from "@coder/protocol";
import {
  createMessageConnection,
  ErrorCodes,
  type Logger,
  Message,
  type MessageConnection,
  type ResponseMessage,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-jsonrpc/node";

function requestId(message: unknown): string | number | null {
  if (typeof message !== "object" || message === null || !("id" in message)) return null;
  return typeof message.id === "string" || typeof message.id === "number" ? message.id : null;
}

/**
 * A JSON-RPC connection (Content-Length framing) over a pair of streams. Unlike a bare
 * vscode-jsonrpc connection, it answers what it cannot use, as JSON-RPC asks: unparsable input
 * with a parse error, and JSON that is not a request, notification or response with an
 * invalid-request error, instead of only logging them.
 */
export function connectStreams(
  input: Readable,
  output: Writable,
  log: (message: string) => void,
): MessageConnection {
  const reader = new StreamMessageReader(input);
  const writer = new StreamMessageWriter(writeOncePerTick(output));
  const replyError = (id: string | number | null, code: number, message: string) => {
    const reply: ResponseMessage = { jsonrpc: "2.0", id, error: { code, message } };
    writer.write(reply).catch(() => log("could not send an error reply"));
  };
  reader.onError((error) => {
    log(`unreadable message: ${error.message}`);
    replyError(null, ErrorCodes.ParseError, `the daemon could not read a message: ${error.message}`);
  });
  const logger: Logger = { error: log, warn: log, info: () => {}, log: () => {} };
  return createMessageConnection(reader, writer, logger, {
    messageStrategy: {
      handleMessage(message, next) {
        if (Message.isRequest(message) || Message.isNotification(message) || Message.isResponse(message)) {
          next(message);
        } else {
          replyError(requestId(message), ErrorCodes.InvalidRequest, "not a JSON-RPC request or notification");
        }
      },
    },
  });
}
