import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { SocketBridge } from "./socket-bridge";

interface Proc {
  got: string[];
  ended: boolean;
}

/** A real socket pair on localhost: the service's end and the browser's end. */
async function socketPair(): Promise<{ service: WebSocket; browser: WebSocket; close(): void }> {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((resolve) => wss.once("listening", resolve));
  const accepted = new Promise<WebSocket>((resolve) => wss.once("connection", resolve));
  const browser = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await new Promise((resolve) => browser.once("open", resolve));
  const service = await accepted;
  return {
    service,
    browser,
    close() {
      browser.terminate();
      wss.close();
    },
  };
}

function bridgeOn(ws: WebSocket, maxEarlyBytes = 10) {
  const events = { overflowed: false };
  const bridge = new SocketBridge<Proc, string>(ws, {
    maxEarlyBytes,
    deliver: (p, item) => p.got.push(item),
    end: (p) => {
      p.ended = true;
    },
    onOverflow: () => {
      events.overflowed = true;
    },
  });
  return { bridge, events };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await sleep(10);
};

describe("the bridge between a browser socket and a process in the container", () => {
  let close = () => {};
  afterEach(() => close());

  it("delivers what the browser typed while the process started, in order, once it runs", async () => {
    const pair = await socketPair();
    close = pair.close;
    const { bridge } = bridgeOn(pair.service);
    bridge.fromBrowser("a", 1);
    bridge.fromBrowser("b", 1);
    const proc: Proc = { got: [], ended: false };
    expect(bridge.started(proc, new PassThrough())).toBe(true);
    bridge.fromBrowser("c", 1);
    expect(proc.got).toEqual(["a", "b", "c"]);
  });

  it("drops the early input and says so when the browser sends too much before the process runs", async () => {
    const pair = await socketPair();
    close = pair.close;
    const { bridge, events } = bridgeOn(pair.service, 10);
    bridge.fromBrowser("12345678", 8);
    expect(events.overflowed).toBe(false);
    bridge.fromBrowser("12345678", 8);
    expect(events.overflowed).toBe(true);
  });

  it("ends a process that finishes starting after the browser left", async () => {
    const pair = await socketPair();
    close = pair.close;
    const { bridge } = bridgeOn(pair.service);
    pair.browser.close();
    await until(() => pair.service.readyState === pair.service.CLOSED);
    const proc: Proc = { got: [], ended: false };
    expect(bridge.started(proc, new PassThrough())).toBe(false);
    expect(proc.ended).toBe(true);
  });

  it("pauses the process's output while the socket has not written it out, and resumes after", async () => {
    const pair = await socketPair();
    close = pair.close;
    const { bridge } = bridgeOn(pair.service);
    const output = new PassThrough();
    output.on("data", () => {});
    bridge.started({ got: [], ended: false }, output);
    const chunk = Buffer.alloc(256 * 1024);
    for (let i = 0; i < 8 && !output.isPaused(); i++) bridge.toBrowser(chunk);
    expect(output.isPaused()).toBe(true);
    await until(() => !output.isPaused());
  });
});
