import { spawn } from "node:child_process";
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { AccessCloseCode, COLLAB_TEXT, CollabRefusal } from "@coder/protocol";
import { MessageType } from "@hocuspocus/server";
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { execIn, joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { GUEST_DOCUMENTS_SHARE, PERSON_LIMITS } from "./collab-people";
import { collabSocket, type OpenDocument, openDocument } from "./testing/collab-client";
import type { FloodOptions, FloodResult } from "./testing/socket-flood";

const repo = path.resolve(import.meta.dirname, "../../../..");
const MB = 1024 * 1024;

/** A full garbage collection, so that memory measured is memory kept, not garbage not yet collected. */
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Runs the flood in its own process: its buffers are not the service's memory. */
function startFlood(options: FloodOptions): Promise<{ result: FloodResult; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "./packages/tools/bin/register.mjs",
      "apps/sandbox/src/collab/testing/socket-flood.ts",
      JSON.stringify(options),
    ],
    { cwd: repo, stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes("\n")) return;
      resolve({
        result: JSON.parse(out.split("\n")[0] ?? "") as FloodResult,
        stop: async () => {
          child.stdin.end();
          await exited;
        },
      });
    });
    child.once("exit", (code) => reject(new Error(`the flood exited with ${code} before reporting`)));
  });
}

/**
 * A collaboration socket driven frame by frame, as a hostile page can: it opens documents with
 * their Auth and sends whatever it likes on them.
 */
class RawCollabSocket {
  private readonly received: { document: string; type: number; rest: decoding.Decoder }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data: Buffer) => {
      const rest = decoding.createDecoder(new Uint8Array(data));
      const document = decoding.readVarString(rest);
      this.received.push({ document, type: decoding.readVarUint(rest), rest });
    });
  }

  static async open(url: string, cookie: string, workspaceId: string): Promise<RawCollabSocket> {
    const ws = new WebSocket(
      `${url.replace("http", "ws")}/collab/${workspaceId}/raw${Math.random().toString(36).slice(2)}`,
      {
        headers: { cookie, origin: url },
      },
    );
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    return new RawCollabSocket(ws);
  }

  send(document: string, type: number, body: (e: encoding.Encoder) => void): void {
    const e = encoding.createEncoder();
    encoding.writeVarString(e, document);
    encoding.writeVarUint(e, type);
    body(e);
    this.ws.send(encoding.toUint8Array(e));
  }

  /** Authenticates `document` and syncs it as a provider does; whether the service opened it. */
  async openDocument(document: string): Promise<boolean> {
    const from = this.received.length;
    this.send(document, MessageType.Auth, (e) => {
      encoding.writeVarUint(e, 0);
      encoding.writeVarString(e, JSON.stringify({ epoch: null }));
    });
    this.send(document, MessageType.Sync, (e) => {
      encoding.writeVarUint(e, 0);
      encoding.writeVarUint8Array(e, new Uint8Array([0]));
    });
    const answer = (type: number) =>
      this.received.slice(from).some((m) => m.document === document && m.type === type);
    await until(
      () => answer(MessageType.Sync) || answer(MessageType.CLOSE),
      `the service answered the opening of ${document}`,
    );
    return answer(MessageType.Sync);
  }

  /** Sends an update of `bytes` on `document`; resolves once the service closed the document on this socket. */
  async sendRefusedUpdate(document: string, bytes: number): Promise<void> {
    const from = this.received.length;
    this.send(document, MessageType.Sync, (e) => {
      encoding.writeVarUint(e, 2);
      encoding.writeVarUint8Array(e, new Uint8Array(bytes));
    });
    await until(
      () => this.received.slice(from).some((m) => m.document === document && m.type === MessageType.CLOSE),
      `the service closed ${document} for the update`,
      30_000,
    );
  }
}

/** Guests attack the live documents of the owner's workspace through real share links. */
describe("what a guest can take from live co-editing", () => {
  let t: TestService;
  let id: string;
  let viewerLink: string;
  const sockets: ReturnType<typeof collabSocket>[] = [];
  const socket = (cookie = t.cookie) => {
    const s = collabSocket(t.url, cookie, id);
    sockets.push(s);
    return s;
  };
  const sh = async (script: string) => {
    const { code, out } = await execIn(t.instance, id, ["sh", "-c", script]);
    if (code !== 0) throw new Error(`${script} failed: ${out}`);
    return out;
  };
  const synced = (doc: OpenDocument) =>
    until(() => doc.provider.isSynced, `${doc.provider.configuration.name} synced`, 30_000);
  /** The owner opens `file`, types into it, and the typing reaches the disk. */
  const ownerTypesToDisk = async (file: string) => {
    await sh(`printf 'owner text\\n' > ${file}`);
    const owner = openDocument(socket(), file);
    await synced(owner);
    expect(owner.refused()).toBeUndefined();
    owner.doc.getText(COLLAB_TEXT).insert(0, "typed by the owner ");
    await until(
      async () => (await sh(`cat ${file}`)) === "typed by the owner owner text\n",
      "the owner's typing is on disk",
      30_000,
    );
  };

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "collab-limits" })).id;
    await waitForStatus(t.api, id, "running");
    viewerLink = (await t.api.share.create.mutate({ workspaceId: id, role: "viewer" })).url;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await t?.close();
  });

  it("refuses a viewer's sockets past their few, and 150 of them sending early frames cost the service at most 64 MB", async () => {
    const viewer = await joinShare(t.url, viewerLink, "Flo");
    collectGarbage();
    const before = process.memoryUsage().rss;
    const flood = await startFlood({
      url: t.url,
      cookie: viewer,
      workspaceId: id,
      sockets: 150,
      framesPerSocket: 4,
      frameBytes: 1_000_000,
    });
    try {
      collectGarbage();
      const grown = process.memoryUsage().rss - before;
      expect(flood.result.open).toBe(PERSON_LIMITS.guest.sockets);
      expect(flood.result.closedWith).toEqual(
        Array(150 - PERSON_LIMITS.guest.sockets).fill(AccessCloseCode.TooManySockets),
      );
      expect(grown, `the service grew by ${Math.round(grown / MB)} MB`).toBeLessThanOrEqual(64 * MB);
      // The owner is not among the refused.
      await ownerTypesToDisk("after-flood.txt");
    } finally {
      await flood.stop();
    }
  });

  it("keeps the owner's typing reaching the disk after a viewer's ten refused 7.5 MB updates", async () => {
    await sh("printf 'owner text\\n' > burn.txt");
    const owner = openDocument(socket(), "burn.txt");
    await synced(owner);
    const viewer = await RawCollabSocket.open(t.url, await joinShare(t.url, viewerLink, "Bea"), id);
    for (let i = 0; i < 10; i++) {
      // Once the budget is burnt (before the fix), even the viewer's opening is refused.
      if (await viewer.openDocument("burn.txt")) await viewer.sendRefusedUpdate("burn.txt", 7.5 * MB);
    }
    viewer.ws.close();
    owner.doc.getText(COLLAB_TEXT).insert(0, "typed by the owner ");
    await until(
      async () => (await sh("cat burn.txt")) === "typed by the owner owner text\n",
      "the owner's typing is on disk",
      30_000,
    );
  });

  it("lets the owner open and type while a viewer who joined five times holds every document they can", async () => {
    await sh("mkdir -p hog && for i in $(seq 0 79); do echo $i > hog/f$i.txt; done");
    const held: OpenDocument[] = [];
    for (let join = 0; join < 5; join++) {
      const cookie = await joinShare(t.url, viewerLink, `Hog ${join}`);
      const s = socket(cookie);
      const docs = Array.from({ length: 16 }, (_, i) => openDocument(s, `hog/f${join * 16 + i}.txt`));
      await until(
        () => docs.every((d) => d.provider.isSynced || d.refused() !== undefined),
        "each of the viewer's documents opened or was refused",
        60_000,
      );
      held.push(...docs.filter((d) => d.provider.isSynced));
      for (const d of docs) if (!d.provider.isSynced) expect(d.refused()).toBe(CollabRefusal.TooMany);
    }
    await ownerTypesToDisk("hogged.txt");
    expect(held.length).toBeLessThanOrEqual(GUEST_DOCUMENTS_SHARE);
  });
});
