import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { COLLAB_TEXT } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { createPostgresDatabase } from "../db/testing/test-database";
import {
  execIn,
  login,
  newInstance,
  removeInstance,
  requireImage,
  spawnService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { until } from "../testing/until";
import { collabSocket, type OpenDocument, openDocument } from "./testing/collab-client";
import { type RedisServer, startRedisServer } from "./testing/redis-server";

const FILE = "shared.txt";

/**
 * Two service instances, each its own process (so one can be killed), on one PostgreSQL database
 * and one Redis server; a person on each edits the same file of one workspace.
 */
describe("two people on two service instances editing one file", () => {
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-collab-instances-"));
  const children: ChildProcess[] = [];
  const sockets: ReturnType<typeof collabSocket>[] = [];
  let redis: RedisServer | undefined;
  let a: { url: string; cookie: string };
  let b: { url: string; cookie: string };
  let workspaceId: string;
  /** What each instance logged since it started. */
  const logs: string[] = [];
  const collectLog = (child: ChildProcess, index: number) => {
    logs[index] = "";
    const add = (chunk: Buffer) => {
      logs[index] += chunk.toString();
    };
    child.stdout?.on("data", add);
    child.stderr?.on("data", add);
  };
  /** How often instance `index` said it writes the file. */
  const writerLines = (index: number) =>
    (logs[index] ?? "")
      .split("\n")
      .filter((line) => line.includes(`collab: ${FILE} is written from this instance`));

  const open = (on: { url: string; cookie: string }, doc?: Y.Doc, epoch?: string | null) => {
    const socket = collabSocket(on.url, on.cookie, workspaceId);
    sockets.push(socket);
    return openDocument(socket, FILE, { doc, epoch });
  };
  const synced = (doc: OpenDocument) => until(() => doc.provider.isSynced, "the document synced");
  const disk = async () => (await execIn(instance, workspaceId, ["cat", FILE])).out;
  const typeAtEnd = (doc: OpenDocument, text: string) => {
    const ytext = doc.doc.getText(COLLAB_TEXT);
    ytext.insert(ytext.length, text);
  };
  /** How long until `check` holds, polled every few milliseconds (fails after `ms`). */
  const timeUntil = async (check: () => boolean, what: string, ms = 5000) => {
    const started = performance.now();
    await until(check, what, ms);
    return performance.now() - started;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    const env = {
      CODER_IMAGE: requireImage(),
      CODER_DATA_DIR: dataDir,
      CODER_PORT: "0",
      CODER_INSTANCE: instance,
      CODER_DATABASE_URL: await createPostgresDatabase(),
      CODER_REDIS_URL: redis.url,
    };
    const first = await spawnService(env);
    children.push(first.child);
    collectLog(first.child, 0);
    const second = await spawnService(env);
    children.push(second.child);
    collectLog(second.child, 1);
    a = { url: first.url, cookie: await login(first.url, first.token ?? "") };
    b = { url: second.url, cookie: await login(second.url, first.token ?? "") };
    const api = trpcClient(a.url, a.cookie);
    workspaceId = (await api.workspace.create.mutate({ name: "two-instances" })).id;
    await waitForStatus(api, workspaceId, "running");
    await api.files.write.mutate({ workspaceId, path: FILE, content: "hello\n" });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    for (const child of children) child.kill("SIGKILL");
    await removeInstance(instance);
    rmSync(dataDir, { recursive: true, force: true });
    await redis?.stop();
  });

  it("see each other's typing and cursors within a second, and the disk gets the merged text once", async () => {
    const onA = open(a);
    await synced(onA);
    const onB = open(b);
    await synced(onB);
    // One history on both instances: the file's text is there once, not once per instance.
    await until(() => onB.text() === "hello\n", "B holds the file's text");
    expect(onA.text()).toBe("hello\n");
    expect(onB.epoch()).toBe(onA.epoch());

    typeAtEnd(onA, "from A\n");
    const aToB = await timeUntil(() => onB.text().includes("from A\n"), "B sees A's typing");
    typeAtEnd(onB, "from B\n");
    const bToA = await timeUntil(() => onA.text().includes("from B\n"), "A sees B's typing");
    expect(aToB).toBeLessThan(1000);
    expect(bToA).toBeLessThan(1000);

    const ytext = onA.doc.getText(COLLAB_TEXT);
    const at = Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(ytext, 2));
    onA.provider.setAwarenessField("cursor", { anchor: at, head: at });
    const cursorOfA = () =>
      [...(onB.provider.awareness?.getStates().values() ?? [])].some(
        (state) => state.cursor?.anchor?.item?.clock === at.item?.clock && state.user?.name,
      );
    const cursor = await timeUntil(cursorOfA, "B sees A's cursor");
    expect(cursor).toBeLessThan(1000);

    await until(async () => (await disk()) === "hello\nfrom A\nfrom B\n", "the disk holds both", 15_000);

    // A shell changes the file: the change is merged into the document once, by one instance.
    const { code } = await execIn(instance, workspaceId, [
      "sh",
      "-c",
      `printf 'from the shell\\n' >> ${FILE}`,
    ]);
    expect(code).toBe(0);
    const merged = "hello\nfrom A\nfrom B\nfrom the shell\n";
    await until(
      () => onA.text() === merged && onB.text() === merged,
      "both editors hold the shell's line",
      15_000,
    );
    await until(async () => (await disk()) === merged, "the disk settles");
    expect(onA.text()).toBe(merged);
    expect(onB.text()).toBe(merged);
    // A loaded the document first: it alone writes it back and merges its disk.
    expect(writerLines(0)).toHaveLength(1);
    expect(writerLines(1)).toHaveLength(0);
    console.log(
      `A → B typing ${aToB.toFixed(0)} ms, B → A ${bToA.toFixed(0)} ms, cursor ${cursor.toFixed(0)} ms`,
    );
  });

  it("takes an offline copy back through the other instance", async () => {
    const offline = open(a);
    await synced(offline);
    const epoch = offline.epoch();
    offline.provider.destroy();
    typeAtEnd(offline, "typed offline\n");
    const back = open(b, offline.doc, epoch);
    await synced(back);
    expect(back.refused()).toBeUndefined();
    await until(
      async () => (await disk()).endsWith("typed offline\n"),
      "the offline typing reaches the disk",
      15_000,
    );
  });

  it("keeps the typing of a person on B going to the disk after instance A is killed", async () => {
    const onB = open(b);
    await synced(onB);
    // A loaded the document first: it is the writer. It dies without a word.
    const killed = children[0] as ChildProcess;
    killed.kill("SIGKILL");
    await new Promise((resolve) => killed.once("exit", resolve));
    for (const word of ["after", "the", "kill"]) typeAtEnd(onB, `${word}\n`);
    const expected = onB.text();
    expect(expected.endsWith("after\nthe\nkill\n")).toBe(true);
    const started = performance.now();
    await until(async () => (await disk()) === expected, "B's typing reaches the disk", 20_000);
    expect(writerLines(1)).toHaveLength(1);
    console.log(`B's typing on disk ${(performance.now() - started).toFixed(0)} ms after A was killed`);
    typeAtEnd(onB, "still typing\n");
    await until(async () => (await disk()) === onB.text(), "later typing reaches the disk too", 10_000);
  });

  it("keeps serving while Redis does not answer, says saving paused, and saves once it is back", async () => {
    const onB = open(b);
    await synced(onB);
    redis?.freeze();
    try {
      typeAtEnd(onB, "typed while Redis hung\n");
      await until(
        () => onB.notes.some((note) => note.type === "disk" && note.error?.startsWith("Saving paused")),
        "the editor is told that saving paused",
        15_000,
      );
      expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
      // A document nobody has open cannot be loaded without Redis: refused in plain words.
      await execIn(instance, workspaceId, ["sh", "-c", "printf 'other\\n' > other.txt"]);
      const other = openDocument(collabSocket(b.url, b.cookie, workspaceId), "other.txt");
      await until(() => other.refused() !== undefined, "the new document is refused", 15_000);
      expect(other.refused()).toBe("unavailable");
      other.provider.destroy();
    } finally {
      redis?.thaw();
    }
    await until(
      async () => (await disk()) === onB.text(),
      "the typing reaches the disk once Redis is back",
      20_000,
    );
    expect(onB.text().endsWith("typed while Redis hung\n")).toBe(true);
  });
});
