// A workspace whose daemon breaks the contract: for every method of the table, a malformed and an
// oversized answer are refused with one log line each and the connection serves the next call;
// every notification that breaks it is dropped with one log line and reaches no one.

import {
  containerLayout,
  type DaemonMethod,
  type DaemonNotification,
  daemonMethods,
  daemonNotifications,
} from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { buildOversized, malformedOf, type Oversize, oversizeOf, sampleOf } from "./testing/contract-samples";

/** What the fake daemon answers per method: a valid sample, a malformed one, and how to oversize it. */
type Plan = Record<string, { valid: unknown; malformed: unknown; oversize: Oversize | undefined }>;

function planOf(
  table: Record<string, unknown>,
  schemaOf: (name: string) => Parameters<typeof sampleOf>[0],
): Plan {
  return Object.fromEntries(
    Object.keys(table).map((name) => {
      const schema = schemaOf(name);
      const valid = sampleOf(schema);
      return [name, { valid, malformed: malformedOf(valid), oversize: oversizeOf(schema) }];
    }),
  );
}

const answers = planOf(daemonMethods, (m) => daemonMethods[m as DaemonMethod].result);
const notifications = planOf(daemonNotifications, (n) => daemonNotifications[n as DaemonNotification]);

/**
 * A stand-in daemon: answers every method of the contract with what /tmp/answer-mode says (valid,
 * malformed or oversized), and before answering sends each notification that way when the mode is
 * notify-malformed or notify-oversized.
 */
const FAKE_DAEMON = String.raw`
const fs = require("node:fs");
const ANSWERS = ${JSON.stringify(answers)};
const NOTIFICATIONS = ${JSON.stringify(notifications)};
const buildOversized = ${buildOversized.toString()};
const shaped = (plan, kind) => kind === "malformed" ? plan.malformed : kind === "oversized" ? buildOversized(plan.valid, plan.oversize) : plan.valid;
const send = (message) => {
  const body = Buffer.from(JSON.stringify(message));
  process.stdout.write("Content-Length: " + body.length + "\r\n\r\n");
  process.stdout.write(body);
};
const mode = () => { try { return fs.readFileSync("/tmp/answer-mode", "utf8").trim(); } catch { return "valid"; } };
function handle(message) {
  if (message.id === undefined) return;
  const now = mode();
  if (now.startsWith("notify-")) {
    for (const [method, plan] of Object.entries(NOTIFICATIONS)) send({ jsonrpc: "2.0", method, params: shaped(plan, now.slice(7)) });
  }
  const plan = ANSWERS[message.method];
  if (!plan) return send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "not here" } });
  send({ jsonrpc: "2.0", id: message.id, result: shaped(plan, now.startsWith("notify-") ? "valid" : now) });
}
let input = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  input = Buffer.concat([input, chunk]);
  for (;;) {
    const end = input.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(input.subarray(0, end).toString())[1]);
    if (input.length < end + 4 + length) return;
    const body = input.subarray(end + 4, end + 4 + length).toString();
    input = input.subarray(end + 4 + length);
    handle(JSON.parse(body));
  }
});
`;

describe("a workspace whose daemon breaks the contract", () => {
  let t: TestService;
  let ws: string;
  const log: string[] = [];
  const linesWith = (text: string) => log.filter((line) => line.includes(text));

  beforeAll(async () => {
    t = await startTestService(
      { daemon: { command: [containerLayout.daemonNode, "-e", FAKE_DAEMON] } },
      {},
      (line) => log.push(line),
    );
    ws = (await t.api.workspace.create.mutate({ name: "contract breaker" })).id;
    await waitForStatus(t.api, ws, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  async function answerWith(mode: string): Promise<void> {
    const written = await execIn(t.instance, ws, [
      "sh",
      "-c",
      'printf %s "$1" > /tmp/answer-mode',
      "sh",
      mode,
    ]);
    expect(written.code).toBe(0);
  }

  for (const method of Object.keys(daemonMethods) as DaemonMethod[]) {
    it(`refuses a malformed and an oversized answer to ${method} with one log line each, and serves the next call`, async () => {
      expect(answers[method]?.oversize, `${method} declares no bound on its answer`).toBeDefined();
      const daemon = t.service.daemons.connection(ws);
      const params = sampleOf(daemonMethods[method].params) as never;
      const refusedLine = `refused a malformed answer to ${method} (`;
      for (const mode of ["malformed", "oversized"]) {
        await answerWith(mode);
        const before = linesWith(refusedLine).length;
        await expect(daemon.request(method, params), mode).rejects.toThrow(
          `the workspace daemon sent a malformed answer to ${method}`,
        );
        expect(linesWith(refusedLine).length, mode).toBe(before + 1);
      }
      await answerWith("valid");
      expect(await daemon.request(method, params)).toBeDefined();
      expect(linesWith("connection dropped")).toEqual([]);
    });
  }

  it("drops every notification that breaks the contract with one log line each, reaching no one", async () => {
    const changes: unknown[] = [];
    const feed = t.service.daemons.fileFeed(ws);
    const stop = new AbortController();
    void (async () => {
      for await (const event of feed.subscribe(null, stop.signal)) changes.push(event);
    })().catch(() => undefined);
    const daemon = t.service.daemons.connection(ws);
    for (const mode of ["malformed", "oversized"]) {
      await answerWith(`notify-${mode}`);
      await daemon.request("ping", {});
    }
    await answerWith("valid");
    stop.abort();
    for (const name of Object.keys(daemonNotifications)) {
      expect(notifications[name]?.oversize, `${name} declares no bound`).toBeDefined();
      expect(linesWith(`refused a malformed ${name} notification (`), name).toHaveLength(2);
    }
    expect(changes).toEqual([]);
    expect(linesWith("connection dropped")).toEqual([]);
  });
});
