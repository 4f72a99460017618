import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { DAEMON_PROTOCOL_VERSION } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { createDaemonServer } from "./server";
import { noTools, startTestDaemon, type TestDaemon } from "./testing/harness";
import type { ToolRunner } from "./tools";

let daemon: TestDaemon | undefined;
afterEach(() => daemon?.stop());

describe("the daemon server", () => {
  it("answers ping with its protocol version, pid and real root", async () => {
    daemon = await startTestDaemon();
    expect(await daemon.request("ping", {})).toEqual({
      version: DAEMON_PROTOCOL_VERSION,
      pid: process.pid,
      root: daemon.root,
    });
    // A client may leave out the empty params object.
    expect(await daemon.client.sendRequest("ping")).toMatchObject({ version: DAEMON_PROTOCOL_VERSION });
  });

  it("answers an unknown method with MethodNotFound and bad params with InvalidParams naming the field", async () => {
    daemon = await startTestDaemon();
    expect((await daemon.failure("fs.nope" as "ping", {})).code).toBe(-32601);
    const bad = await daemon.failure("fs.read", { path: 5, maxBytes: 10 });
    expect(bad.code).toBe(-32602);
    expect(bad.message).toMatch(/^fs\.read: path: /);
    expect((await daemon.failure("fs.stat", ["a.txt"])).code).toBe(-32602);
  });

  it("keeps serving file requests while a slow tool call runs", async () => {
    let release = () => {};
    const runner: ToolRunner = {
      definitions: () => [],
      execute: () =>
        new Promise((resolve) => {
          release = () => resolve({ result: { ok: true }, output: "done" });
        }),
    };
    daemon = await startTestDaemon({ runner });
    await mkdir(path.join(daemon.root, "src"));
    await writeFile(path.join(daemon.root, "src/a.txt"), "hello");
    const slow = daemon.request("tools.execute", { tool: "slow", args: {}, sessionId: "s", callId: "c" });
    const read = await daemon.request("fs.read", { path: "src/a.txt", maxBytes: 100 });
    expect(read.content).toBe("hello");
    release();
    expect(await slow).toEqual({ result: { ok: true }, output: "done" });
  });

  it("shuts down when its input ends", async () => {
    daemon = await startTestDaemon({ watch: true });
    daemon.input.end();
    await daemon.server.closed;
  });

  it("refuses to start on a root that is not a folder", async () => {
    daemon = await startTestDaemon();
    const file = path.join(daemon.root, "file.txt");
    await writeFile(file, "");
    const streams = { input: new PassThrough(), output: new PassThrough() };
    await expect(createDaemonServer({ root: file, ...streams, runner: noTools })).rejects.toThrow(
      /is not a folder/,
    );
  });
});
