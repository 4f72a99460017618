import { COLLAB_TEXT } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { execIn, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { collabSocket, openDocument } from "./testing/collab-client";

/** What an editor queues while its socket is down, sent the moment it is back. */
describe("typing done while the collaboration socket was down", () => {
  let t: TestService;
  let id: string;
  const sockets: ReturnType<typeof collabSocket>[] = [];

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "offline" })).id;
    await waitForStatus(t.api, id, "running");
    // A file of 48 lines of 1000 characters.
    await execIn(t.instance, id, [
      "sh",
      "-c",
      "for i in $(seq 48); do printf '%01000d\\n' 0; done > notes.txt",
    ]);
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await t?.close();
  });

  it("reaches the others once the socket is back, typed here and there for ten minutes", async () => {
    const open = () => {
      const socket = collabSocket(t.url, t.cookie, id);
      sockets.push(socket);
      return { socket, document: openDocument(socket, "notes.txt") };
    };
    const typist = open();
    const reader = open();
    await until(() => typist.document.provider.isSynced && reader.document.provider.isSynced, "both synced");
    typist.socket.disconnect();
    await until(() => typist.socket.status === "disconnected", "the typist's socket is down");
    const closes: number[] = [];
    typist.document.provider.on("close", ({ event }: { event: { code: number } }) => closes.push(event.code));
    // Ten minutes of typing here and there (as one does, going back to where one typed before):
    // 3000 keystrokes at random places, each its own update the provider queues.
    const text = typist.document.doc.getText(COLLAB_TEXT);
    for (let i = 0; i < 3000; i++) text.insert(Math.floor(Math.random() * (text.length + 1)), "y");
    const expected = text.toString();
    typist.socket.connect();
    await until(() => reader.document.text() === expected, "the reader has everything typed offline", 60_000);
    expect(closes.filter((code) => code !== 1000)).toEqual([]);
  });

  it("reaches the others from two tabs of one person that both typed while their sockets were down", async () => {
    const open = () => {
      const socket = collabSocket(t.url, t.cookie, id);
      sockets.push(socket);
      return { socket, document: openDocument(socket, "tabs.txt") };
    };
    await execIn(t.instance, id, ["sh", "-c", "printf 'tabs\\n' > tabs.txt"]);
    const tabs = [open(), open()];
    const reader = open();
    await until(() => [...tabs, reader].every((tab) => tab.document.provider.isSynced), "all synced");
    for (const tab of tabs) tab.socket.disconnect();
    await until(
      () => tabs.every((tab) => tab.socket.status === "disconnected"),
      "both tabs' sockets are down",
    );
    const closes: number[] = [];
    for (const tab of tabs)
      tab.document.provider.on("close", ({ event }: { event: { code: number } }) => closes.push(event.code));
    // Each tab: 5000 keystrokes, each its own queued update (about 170 KB of frames a tab).
    for (const tab of tabs) {
      const text = tab.document.doc.getText(COLLAB_TEXT);
      for (let i = 0; i < 5000; i++) text.insert(text.length, "z");
    }
    for (const tab of tabs) tab.socket.connect();
    await until(
      () => (reader.document.text().match(/z/g) ?? []).length === 10_000,
      "the reader has both tabs' typing",
      60_000,
    );
    expect(closes).toEqual([]);
  });

  it("reaches the others after an hour of typing while the socket was down", async () => {
    const socket = collabSocket(t.url, t.cookie, id);
    sockets.push(socket);
    await execIn(t.instance, id, ["sh", "-c", "printf 'hour\\n' > hour.txt"]);
    const typist = openDocument(socket, "hour.txt");
    const readerSocket = collabSocket(t.url, t.cookie, id);
    sockets.push(readerSocket);
    const reader = openDocument(readerSocket, "hour.txt");
    await until(() => typist.provider.isSynced && reader.provider.isSynced, "both synced");
    socket.disconnect();
    await until(() => socket.status === "disconnected", "the typist's socket is down");
    const closes: string[] = [];
    typist.provider.on("close", ({ event }: { event: { code: number; reason: string } }) =>
      closes.push(`${event.code} ${event.reason}`),
    );
    // 18 000 keystrokes (an hour at five a second), each its own queued update.
    const text = typist.doc.getText(COLLAB_TEXT);
    for (let i = 0; i < 18_000; i++) text.insert(text.length, "h");
    socket.connect();
    await until(
      () => reader.text().length === text.length || closes.length > 0,
      "the reader has the hour's typing, or the typist's socket closed",
      60_000,
    );
    expect(closes).toEqual([]);
    expect(reader.text()).toBe(text.toString());
  });

  it("takes back a copy typed here and there while away, sent whole when its tab comes back", async () => {
    await execIn(t.instance, id, [
      "sh",
      "-c",
      "for i in $(seq 48); do printf '%01000d\\n' 0; done > away.txt",
    ]);
    const open = (doc?: Y.Doc, epoch?: string | null) => {
      const socket = collabSocket(t.url, t.cookie, id);
      sockets.push(socket);
      return openDocument(socket, "away.txt", { doc, epoch });
    };
    const first = open();
    const reader = open();
    await until(() => first.provider.isSynced && reader.provider.isSynced, "both synced");
    // The tab goes away with its copy (a reload keeps none of the provider's queue): what it typed
    // then comes back in one sync, as the service asks for what it lacks.
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(first.doc));
    const epoch = first.epoch();
    first.provider.destroy();
    const text = copy.getText(COLLAB_TEXT);
    // 3000 keystrokes at random places (going back to where one typed before, as people do).
    for (let i = 0; i < 3000; i++) text.insert(Math.floor(Math.random() * (text.length + 1)), "w");
    const back = open(copy, epoch);
    const closes: string[] = [];
    back.provider.on("close", ({ event }: { event: { code: number; reason: string } }) =>
      closes.push(`${event.code} ${event.reason}`),
    );
    await until(
      () => reader.text() === text.toString() || closes.length > 0,
      "the reader has the typing, or the tab's socket closed",
      60_000,
    );
    expect(closes).toEqual([]);
    expect(reader.text()).toBe(text.toString());
  });
});
