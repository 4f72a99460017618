import type { Message, MessageWriter } from "vscode-jsonrpc/node";

/**
 * Wraps a writer so a failed write resolves instead of rejecting. vscode-jsonrpc 8's sendRequest
 * rethrows a write failure inside a `new Promise(async ...)` executor, which surfaces as an
 * unhandled rejection (fatal in a CLI) when the server dies mid-write. The failure still reaches
 * `onError`, and callers learn of the death from the process exit.
 */
export function nonRejectingWriter(inner: MessageWriter): MessageWriter {
  return {
    onError: inner.onError,
    onClose: inner.onClose,
    write: (message: Message) => inner.write(message).catch(() => undefined),
    end: () => inner.end(),
    dispose: () => inner.dispose(),
  };
}
