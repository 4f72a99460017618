import { DaemonErrorCode } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { CancellationTokenSource, ResponseError } from "vscode-jsonrpc/node";
import { z } from "zod";
import { Dispatcher } from "./dispatch";

function setup() {
  const logs: string[] = [];
  const seen: AbortSignal[] = [];
  let finish = () => {};
  const contract = {
    add: { params: z.object({ a: z.number(), b: z.number() }) },
    broken: { params: z.object({}) },
    wait: { params: z.object({}) },
  };
  const dispatcher = new Dispatcher(
    contract,
    {
      add: async ({ a, b }) => a + b,
      broken: async () => {
        throw new TypeError("cannot read properties of undefined");
      },
      wait: (_params, signal) => {
        seen.push(signal);
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
    },
    (message) => logs.push(message),
  );
  return { dispatcher, logs, seen, finish: () => finish() };
}

const token = () => new CancellationTokenSource();

async function rejection(promise: Promise<unknown>): Promise<ResponseError<unknown>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ResponseError)) throw new Error(`expected a ResponseError, got ${String(error)}`);
  return error;
}

describe("Dispatcher", () => {
  it("runs a method with validated params", async () => {
    const { dispatcher } = setup();
    expect(await dispatcher.handle("add", { a: 2, b: 3 }, token().token)).toBe(5);
  });

  it("answers an unknown method, including inherited object keys, with MethodNotFound", async () => {
    const { dispatcher } = setup();
    for (const method of ["nope", "toString", "__proto__"]) {
      expect((await rejection(dispatcher.handle(method, {}, token().token))).code, method).toBe(-32601);
    }
  });

  it("answers params that fail the schema with InvalidParams naming the field", async () => {
    const { dispatcher } = setup();
    const error = await rejection(dispatcher.handle("add", { a: 1, b: "2" }, token().token));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^add: b: /);
  });

  it("turns an unexpected throw into an Io error and logs it", async () => {
    const { dispatcher, logs } = setup();
    const error = await rejection(dispatcher.handle("broken", {}, token().token));
    expect([error.code, error.message]).toEqual([DaemonErrorCode.Io, "cannot read properties of undefined"]);
    expect(logs.join("\n")).toMatch(/broken failed: TypeError/);
  });

  it("aborts a running method when its request is cancelled", async () => {
    const { dispatcher, seen, finish } = setup();
    const source = token();
    const running = dispatcher.handle("wait", {}, source.token);
    source.cancel();
    expect(seen[0]?.aborted).toBe(true);
    finish();
    await running;
  });

  it("aborts every running method on abortAll", async () => {
    const { dispatcher, seen, finish } = setup();
    const running = dispatcher.handle("wait", {}, token().token);
    dispatcher.abortAll();
    expect(seen[0]?.aborted).toBe(true);
    finish();
    await running;
  });
});
