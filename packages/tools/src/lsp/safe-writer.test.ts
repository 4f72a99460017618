import { describe, expect, it } from "vitest";
import { Emitter, type MessageWriter } from "vscode-jsonrpc/node";
import { nonRejectingWriter } from "./safe-writer";

describe("nonRejectingWriter", () => {
  it("resolves a failed write and still reports the failure on onError", async () => {
    const errors = new Emitter<[Error, undefined, undefined]>();
    const inner: MessageWriter = {
      onError: errors.event,
      onClose: new Emitter<void>().event,
      write: async () => {
        const error = new Error("write EPIPE");
        errors.fire([error, undefined, undefined]);
        throw error;
      },
      end: () => {},
      dispose: () => {},
    };
    const seen: string[] = [];
    const writer = nonRejectingWriter(inner);
    writer.onError(([error]) => seen.push(error.message));
    await expect(writer.write({ jsonrpc: "2.0" })).resolves.toBeUndefined();
    expect(seen).toEqual(["write EPIPE"]);
  });
});
