import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";
import { unfailingWrites } from "./unfailing-writes";

describe("requests to a daemon whose input has closed", () => {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  afterEach(() => {
    process.off("unhandledRejection", record);
    unhandled.length = 0;
  });

  it("fail when the connection drops, and leave no unhandled rejection that would end the service", async () => {
    process.on("unhandledRejection", record);
    const input = new PassThrough();
    input.on("error", () => undefined);
    input.end();
    const conn = createMessageConnection(
      new StreamMessageReader(new PassThrough()),
      new StreamMessageWriter(unfailingWrites(input)),
    );
    conn.listen();
    const answer = conn.sendRequest("ping", {});
    await sleep(50);
    conn.dispose();
    await expect(answer).rejects.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });

  it("still deliver what is written while the input is open", async () => {
    const input = unfailingWrites(new PassThrough());
    const written = new Promise<string>((resolve) =>
      input.once("data", (c: Buffer) => resolve(c.toString())),
    );
    const done = new Promise<void>((resolve) => input.write("hello", () => resolve()));
    expect(await written).toBe("hello");
    await done;
  });
});
