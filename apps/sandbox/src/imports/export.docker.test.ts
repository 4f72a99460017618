import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";

/** Every entry under /workspace: kind, path, mode, size, link target, and a checksum of each file. */
async function snapshot(t: TestService, id: string): Promise<string> {
  const { out } = await execIn(t.instance, id, [
    "sh",
    "-c",
    "find . -mindepth 1 -printf '%y %P %m %s %l\\n' | sort && find . -type f -print0 | sort -z | xargs -0 sha256sum",
  ]);
  return out;
}

/** A tree with what tar must keep: nested folders, an empty one, modes, links, odd names, binary bytes. */
const MAKE_TREE = `set -e
mkdir -p src/deep/er empty 'with space'
printf 'print(1)\\n' > src/main.py
printf '#!/bin/sh\\necho hi\\n' > run.sh && chmod 755 run.sh
head -c 300000 /dev/urandom > src/deep/er/blob.bin
printf 'ü' > 'with space/Übersicht.md'
ln -s src/main.py main-link
ln src/main.py src/hard.py
git init -q . && git add -A && git -c user.name=t -c user.email=t@e commit -qm one
`;

describe("exporting a workspace", () => {
  let t: TestService;
  let id: string;
  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "to export" })).id;
    await waitForStatus(t.api, id, "running");
    const made = await execIn(t.instance, id, ["sh", "-c", MAKE_TREE]);
    expect(made.code, made.out).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  const download = (cookie?: string, workspaceId = id) =>
    fetch(`${t.url}/api/workspaces/${workspaceId}/archive`, { headers: cookie ? { cookie } : {} });

  it("gives a .tar.gz that unpacks to the same tree in another workspace", async () => {
    const res = await download(t.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="to-export.tar.gz"');
    const archive = Buffer.from(await res.arrayBuffer());
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    const upload = await fetch(`${t.url}/api/uploads?name=to-export.tar.gz`, {
      method: "POST",
      headers: { origin: t.url, cookie: t.cookie },
      body: new Uint8Array(archive),
    });
    expect(upload.status).toBe(201);
    const { uploadId } = (await upload.json()) as { uploadId: string };
    const copy = await t.api.workspace.create.mutate({ name: "copy", source: { type: "upload", uploadId } });
    const ws = await waitForStatus(t.api, copy.id, "running");
    expect(ws.import?.report?.skippedTotal).toBe(0);
    expect(await snapshot(t, copy.id)).toBe(await snapshot(t, id));
    expect((await execIn(t.instance, copy.id, ["git", "status", "--porcelain"])).out).toBe("");
  });

  it("is for the owner and editors: a viewer, a guest of another workspace and no session are refused", async () => {
    const other = (await t.api.workspace.create.mutate({ name: "other" })).id;
    await waitForStatus(t.api, other, "running");
    const join = async (workspaceId: string, role: "viewer" | "editor", name: string) =>
      joinShare(t.url, (await t.api.share.create.mutate({ workspaceId, role })).url, name);
    const editor = await join(id, "editor", "Ed");
    const viewer = await join(id, "viewer", "Vera");
    const stranger = await join(other, "editor", "Olga");
    const editors = await download(editor);
    expect(editors.status).toBe(200);
    await editors.arrayBuffer();
    expect((await download(viewer)).status).toBe(403);
    expect((await download(stranger)).status).toBe(403);
    expect((await download()).status).toBe(401);
    expect((await download(t.cookie, "nosuchworkspace0")).status).toBe(404);
  });
});
