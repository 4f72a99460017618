import { setTimeout as sleep } from "node:timers/promises";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  execIn,
  joinShare,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { tar, tarGz, zip } from "./testing/archives";

/** `POST /api/uploads` as the browser sends it. */
async function upload(url: string, cookie: string | undefined, body: Buffer, name = "project.tar.gz") {
  return fetch(`${url}/api/uploads?name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/octet-stream", ...(cookie ? { cookie } : {}) },
    body: new Uint8Array(body),
  });
}

async function uploadId(t: TestService, body: Buffer, name?: string): Promise<string> {
  const res = await upload(t.url, t.cookie, body, name);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { uploadId: string }).uploadId;
}

/** Every path under /workspace with its kind (f, d, l) and, for links, the target. */
async function tree(t: TestService, id: string): Promise<string[]> {
  const { out } = await execIn(t.instance, id, [
    "find",
    "/workspace",
    "-mindepth",
    "1",
    "-printf",
    "%y %P %l\n",
  ]);
  return out
    .trim()
    .split("\n")
    .map((l) => l.trim())
    .sort();
}

async function waitForError(t: TestService, workspaceId: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ws = await t.api.workspace.get.query({ workspaceId });
    if (ws.status === "error") return ws.detail ?? "";
    if (ws.status === "running") throw new Error("the workspace came up although its import should fail");
    if (Date.now() > deadline) throw new Error(`workspace still ${ws.status}`);
    await sleep(200);
  }
}

/** Entries that try every way out of the folder they are unpacked into (`sub`). */
const ESCAPES = [
  { name: "../up.txt", content: "climbed" },
  { name: "/abs.txt", content: "absolute" },
  { name: "abs-link", type: "symlink" as const, linkname: "/etc" },
  { name: "out-link", type: "symlink" as const, linkname: "../../outside" },
  { name: "hard-abs", type: "hardlink" as const, linkname: "/etc/passwd" },
  { name: "hard-up", type: "hardlink" as const, linkname: "../sibling/keep.txt" },
  { name: "char-dev", type: "char" as const },
  { name: "block-dev", type: "block" as const },
  { name: "a-fifo", type: "fifo" as const },
  // Allowed (it stays in the workspace), but nothing may be written through it.
  { name: "sib", type: "symlink" as const, linkname: "../sibling" },
  { name: "sib/planted.txt", content: "through a link" },
  { name: "ok/inside.txt", content: "fine" },
  { name: "ok/again.txt", type: "hardlink" as const, linkname: "ok/inside.txt" },
];

describe("a workspace filled from an uploaded archive", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({}, { CODER_IMPORT_MAX_MB: "8" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("holds the files of a .tar.gz and of a .zip, with folders, links and the executable bit", async () => {
    const entries = [
      { name: "src/", type: "dir" as const },
      { name: "src/main.py", content: "print('hi')\n" },
      { name: "run.sh", content: "#!/bin/sh\necho run\n", mode: 0o755 },
      { name: "docs/readme.md", content: "# docs\n" },
      { name: "latest", type: "symlink" as const, linkname: "docs/readme.md" },
    ];
    const fromTar = await t.api.workspace.create.mutate({
      name: "from tar",
      source: { type: "upload", uploadId: await uploadId(t, tarGz(entries)) },
    });
    const fromZip = await t.api.workspace.create.mutate({
      name: "from zip",
      source: {
        type: "upload",
        uploadId: await uploadId(
          t,
          zip([
            { name: "src/" },
            { name: "src/main.py", content: "print('hi')\n", deflate: true },
            { name: "run.sh", content: "#!/bin/sh\necho run\n", mode: 0o100755 },
            { name: "docs/readme.md", content: "# docs\n" },
            { name: "latest", content: "docs/readme.md", mode: 0o120777 },
          ]),
          "project.zip",
        ),
      },
    });
    for (const { id } of [fromTar, fromZip]) {
      const ws = await waitForStatus(t.api, id, "running");
      expect(ws.import?.state).toBe("done");
      expect(ws.import?.report?.skippedTotal).toBe(0);
      expect(await tree(t, id)).toEqual([
        "d docs",
        "d src",
        "f docs/readme.md",
        "f run.sh",
        "f src/main.py",
        "l latest docs/readme.md",
      ]);
      expect((await execIn(t.instance, id, ["./run.sh"])).out).toBe("run\n");
      expect((await execIn(t.instance, id, ["cat", "latest"])).out).toBe("# docs\n");
    }
    expect((await t.api.workspace.get.query({ workspaceId: fromZip.id })).import?.origin).toEqual({
      type: "upload",
      name: "project.zip",
    });
  });

  describe("dropped into a folder of a running workspace", () => {
    let id: string;
    beforeAll(async () => {
      id = (await t.api.workspace.create.mutate({ name: "drops" })).id;
      await waitForStatus(t.api, id, "running");
      await execIn(t.instance, id, ["sh", "-c", "mkdir -p sub sibling && echo keep > sibling/keep.txt"]);
    });

    it("skips every tar entry that would leave the folder, lists each, and writes nothing outside", async () => {
      const report = await t.api.files.unpack.mutate({
        workspaceId: id,
        uploadId: await uploadId(t, tar(ESCAPES), "escapes.tar"),
        path: "sub",
      });
      expect(Object.fromEntries(report.skipped.map((s) => [s.path, s.reason]))).toEqual({
        "../up.txt": "leaves the folder (..)",
        "/abs.txt": "an absolute path",
        "abs-link": "a symlink to an absolute path",
        "out-link": "a symlink pointing out of the workspace",
        "hard-abs": "a hard link to something outside the folder",
        "hard-up": "a hard link to something outside the folder",
        "char-dev": "a device or special file",
        "block-dev": "a device or special file",
        "a-fifo": "a device or special file",
        "sib/planted.txt": "goes through a symlink or a file",
      });
      expect(report.skippedTotal).toBe(10);
      expect(await tree(t, id)).toEqual([
        "d sibling",
        "d sub",
        "d sub/ok",
        "f sibling/keep.txt",
        "f sub/ok/again.txt",
        "f sub/ok/inside.txt",
        "l sub/sib ../sibling",
      ]);
      expect((await execIn(t.instance, id, ["cat", "sibling/keep.txt"])).out).toBe("keep\n");
    });

    it("skips every zip entry that would leave the folder, and lists each", async () => {
      const report = await t.api.files.unpack.mutate({
        workspaceId: id,
        uploadId: await uploadId(
          t,
          zip([
            { name: "../zip-up.txt", content: "climbed" },
            { name: "/zip-abs.txt", content: "absolute" },
            { name: "C:\\windows.txt", content: "drive" },
            { name: "..\\back.txt", content: "backslash" },
            { name: "zlink", content: "/etc/passwd", mode: 0o120777 },
            { name: "zlink-up", content: "../../..", mode: 0o120777 },
            { name: "zfifo", mode: 0o010644 },
            { name: "zip-ok.txt", content: "fine" },
          ]),
          "escapes.zip",
        ),
        path: "sub",
      });
      expect(Object.fromEntries(report.skipped.map((s) => [s.path, s.reason]))).toEqual({
        "../zip-up.txt": "leaves the folder (..)",
        "/zip-abs.txt": "an absolute path",
        "C:\\windows.txt": "an absolute path",
        "..\\back.txt": "leaves the folder (..)",
        zlink: "a symlink to an absolute path",
        "zlink-up": "a symlink pointing out of the workspace",
        zfifo: "a device or special file",
      });
      expect(report.files).toBe(1);
      const paths = await tree(t, id);
      expect(paths).toContain("f sub/zip-ok.txt");
      expect(paths.filter((p) => !p.includes("sub/") && !p.includes("sibling"))).toEqual(["d sub"]);
    });
  });

  it("stops a zip bomb and a gzip bomb at the size cap", async () => {
    const zeros = Buffer.alloc(64 * 1024 * 1024);
    const zipBomb = zip([{ name: "zeros.bin", content: zeros, deflate: true }]);
    const tarBomb = tarGz([{ name: "zeros.bin", content: zeros }]);
    expect(zipBomb.length + tarBomb.length).toBeLessThan(1024 * 1024);
    for (const [body, name] of [
      [zipBomb, "bomb.zip"],
      [tarBomb, "bomb.tar.gz"],
    ] as const) {
      const { id } = await t.api.workspace.create.mutate({
        name,
        source: { type: "upload", uploadId: await uploadId(t, body, name) },
      });
      expect(await waitForError(t, id)).toBe("the archive unpacks to more than 8 MB (CODER_IMPORT_MAX_MB)");
    }
  });

  it("says so when the upload is not an archive", async () => {
    const { id } = await t.api.workspace.create.mutate({
      name: "not an archive",
      source: { type: "upload", uploadId: await uploadId(t, Buffer.from("just some text\n".repeat(100))) },
    });
    expect(await waitForError(t, id)).toBe("this is not a .zip, .tar or .tar.gz archive");
  });

  it("refuses an upload over the cap, without a session or Origin, from a viewer, and someone else's upload", async () => {
    expect((await upload(t.url, t.cookie, Buffer.alloc(9 * 1024 * 1024))).status).toBe(413);
    expect((await upload(t.url, undefined, tar([]))).status).toBe(401);
    const noOrigin = await fetch(`${t.url}/api/uploads`, {
      method: "POST",
      headers: { cookie: t.cookie },
      body: new Uint8Array(tar([])),
    });
    expect(noOrigin.status).toBe(403);

    const { id } = await t.api.workspace.create.mutate({ name: "shared" });
    await waitForStatus(t.api, id, "running");
    const join = async (role: "viewer" | "editor", name: string) =>
      joinShare(t.url, (await t.api.share.create.mutate({ workspaceId: id, role })).url, name);
    const viewer = await join("viewer", "Vera");
    const editor = await join("editor", "Ed");
    expect((await upload(t.url, viewer, tar([]))).status).toBe(403);

    // The owner's upload is the owner's: an editor guest cannot unpack it.
    const owners = await uploadId(t, tar([{ name: "x.txt", content: "x" }]));
    const taken = await trpcClient(t.url, editor)
      .files.unpack.mutate({ workspaceId: id, uploadId: owners })
      .catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(TRPCClientError);
    expect((taken as Error).message).toMatch(/that upload does not exist/);

    const res = await upload(t.url, editor, tar([{ name: "from-ed.txt", content: "ed" }]));
    expect(res.status).toBe(201);
    const mine = ((await res.json()) as { uploadId: string }).uploadId;
    const report = await trpcClient(t.url, editor).files.unpack.mutate({ workspaceId: id, uploadId: mine });
    expect(report.files).toBe(1);
    expect((await execIn(t.instance, id, ["cat", "from-ed.txt"])).out).toBe("ed");
  });
});
