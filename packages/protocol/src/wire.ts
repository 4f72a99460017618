import type { Writable } from "node:stream";

/**
 * Makes the writes of one tick leave as one: vscode-jsonrpc writes a message's header and body
 * separately, and through Docker's stdio relay every write costs a wake-up at each hop.
 * Returns the same stream.
 */
export function writeOncePerTick<T extends Writable>(stream: T): T {
  const write = stream.write.bind(stream) as Writable["write"];
  let corked = false;
  stream.write = ((...args: Parameters<Writable["write"]>) => {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(() => {
        corked = false;
        stream.uncork();
      });
    }
    return write(...(args as unknown as [never]));
  }) as Writable["write"];
  return stream;
}
