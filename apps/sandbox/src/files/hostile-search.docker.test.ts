// A workspace whose daemon answers find in files with a flood, or with matches that break the
// protocol's bounds: the service forwards at most MAX_SEARCH_MATCHES, ends the search, logs the
// violation once and keeps serving.

import { containerLayout, MAX_SEARCH_MATCHES, type SearchEvent, textQuery } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { subscriptionEvents } from "../testing/trpc-sse";

/** A stand-in daemon: answers ping, and search.text by the pattern's name. */
const FAKE_DAEMON = String.raw`
let input = Buffer.alloc(0);
const send = (message) => {
  const body = Buffer.from(JSON.stringify(message));
  process.stdout.write("Content-Length: " + body.length + "\r\n\r\n");
  process.stdout.write(body);
};
const notify = (searchId, files) => send({ jsonrpc: "2.0", method: "search.matches", params: { searchId, files } });
function handle(message) {
  if (message.id === undefined) return;
  const reply = (result) => send({ jsonrpc: "2.0", id: message.id, result });
  if (message.method === "ping") return reply({ version: 1, pid: process.pid, root: "/workspace" });
  if (message.method === "search.text") {
    const { searchId, query } = message.params;
    if (query.pattern === "flood") {
      const matches = Array.from({ length: 1000 }, (_, i) => ({ line: i + 1, column: 1, text: "flood", ranges: [{ start: 0, end: 5 }] }));
      for (let i = 0; i < 100; i++) notify(searchId, [{ path: "f" + i + ".txt", matches }]);
      return reply({ matchCount: 100000, fileCount: 100, truncated: false });
    }
    notify(searchId, [{ path: "a.txt", matches: [{ line: 1, column: 1, text: "x".repeat(100000), ranges: [] }] }]);
    return reply({ matchCount: 1, fileCount: 1, truncated: false });
  }
  send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "not here" } });
}
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

/** The real daemon, unless the workspace left the stand-in in /tmp. */
const DAEMON_WRAPPER = `[ -f /tmp/fake-daemon.js ] && exec ${containerLayout.daemonNode} /tmp/fake-daemon.js
exec ${containerLayout.daemonNode} ${containerLayout.daemonScript} --root ${containerLayout.workspace}`;

describe("a workspace whose daemon floods or breaks find in files", () => {
  let t: TestService;
  let ws: string;
  const log: string[] = [];

  beforeAll(async () => {
    t = await startTestService({ daemon: { command: ["sh", "-c", DAEMON_WRAPPER] } }, {}, (line) =>
      log.push(line),
    );
    ws = (await t.api.workspace.create.mutate({ name: "hostile search" })).id;
    await waitForStatus(t.api, ws, "running");
    await t.api.files.write.mutate({ workspaceId: ws, path: "fake-daemon.js", content: FAKE_DAEMON });
    expect(
      (await execIn(t.instance, ws, ["cp", "/workspace/fake-daemon.js", "/tmp/fake-daemon.js"])).code,
    ).toBe(0);
    // The next call starts the stand-in.
    t.service.daemons.connection(ws).reset();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function search(pattern: string): Promise<SearchEvent[]> {
    const events: SearchEvent[] = [];
    const input = { workspaceId: ws, query: textQuery.parse({ pattern }) };
    for await (const event of subscriptionEvents<SearchEvent>(
      t.url,
      t.cookie,
      "files.search",
      input,
      new AbortController().signal,
    )) {
      events.push(event);
    }
    return events;
  }

  it("passes on at most the cap of a flood of matches and says the results were truncated", async () => {
    const events = await search("flood");
    const forwarded = events
      .flatMap((e) => (e.type === "matches" ? e.files : []))
      .reduce((n, f) => n + f.matches.length, 0);
    expect(forwarded).toBe(MAX_SEARCH_MATCHES);
    expect(events.at(-1)).toMatchObject({ type: "done", matchCount: MAX_SEARCH_MATCHES, truncated: true });
  });

  it("ends a search whose matches break the bounds, logs it once, and keeps serving", async () => {
    await expect(search("malformed")).rejects.toThrow(/malformed search results/);
    expect(log.filter((line) => line.includes("malformed search.matches"))).toHaveLength(1);
    const again = await search("flood");
    expect(again.at(-1)).toMatchObject({ type: "done", truncated: true });
  });
});
