import { COLLAB_TEXT } from "@coder/protocol";
import { MessageType } from "@hocuspocus/server";
import * as encoding from "lib0/encoding";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as Y from "yjs";
import { daemonWorkspace } from "../agent/workspace/workspace-port";
import { execIn, joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { collabSocket, type OpenDocument, openDocument } from "./testing/collab-client";

/** Live documents through the real service, a real workspace container and its daemon. */
describe("live co-editing of a workspace file", () => {
  let t: TestService;
  let id: string;
  const cookies: Record<string, string> = {};
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
  const disk = (path: string) => sh(`cat ${path}`);
  const synced = (doc: OpenDocument) =>
    until(() => doc.provider.isSynced, `${doc.provider.configuration.name} synced`);
  const typeAt = (doc: OpenDocument, line: number, text: string) => {
    const content = doc.text();
    let at = 0;
    for (let i = 0; i < line; i++) at = content.indexOf("\n", at) + 1;
    doc.doc.getText(COLLAB_TEXT).insert(at, text);
  };

  /** Opens `path`, keeps a copy of its document, leaves, and waits until the document unloaded. */
  const copyThenLeave = async (path: string) => {
    const first = openDocument(socket(), path);
    await synced(first);
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(first.doc));
    const epoch = first.epoch();
    first.provider.destroy();
    await until(() => !t.service.collab.liveDocuments(id).includes(path), "the document unloaded", 30_000);
    return { copy, epoch };
  };

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "collab" })).id;
    await waitForStatus(t.api, id, "running");
    const join = async (role: "viewer" | "editor", name: string) =>
      joinShare(t.url, (await t.api.share.create.mutate({ workspaceId: id, role })).url, name);
    cookies.viewer = await join("viewer", "Vera");
    cookies.editor = await join("editor", "Ed");
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await t?.close();
  });

  it("shares typing between two editors and writes it to disk without a save", async () => {
    await sh("printf 'one\\ntwo\\nthree\\n' > shared.txt");
    const a = openDocument(socket(), "shared.txt");
    const b = openDocument(socket(cookies.editor), "shared.txt");
    await Promise.all([synced(a), synced(b)]);
    expect(a.text()).toBe("one\ntwo\nthree\n");
    typeAt(a, 0, "A:");
    typeAt(b, 2, "B:");
    await until(
      () => a.text() === b.text() && a.text().includes("A:") && a.text().includes("B:"),
      "both see both",
    );
    await until(async () => (await disk("shared.txt")) === "A:one\ntwo\nB:three\n", "the disk holds both");
    await until(
      () => a.notes.some((n) => n.type === "disk" && n.saved),
      "the editor is told the disk caught up",
    );
  });

  it("merges a change on disk into the document without losing typing the disk never saw", async () => {
    await sh("printf 'alpha\\nbeta\\ngamma\\n' > merge.txt");
    const a = openDocument(socket(), "merge.txt");
    await synced(a);
    // Typing and a command in the terminal at the same moment, on different lines.
    typeAt(a, 0, "typed ");
    await sh("sed -i 's/gamma/GAMMA/' merge.txt");
    await until(
      () => a.text() === "typed alpha\nbeta\nGAMMA\n",
      "typing and the disk change both in the document",
    );
    await until(async () => (await disk("merge.txt")) === "typed alpha\nbeta\nGAMMA\n", "and on disk");
  });

  it("does not let a viewer change the text, and labels cursors with the service's names", async () => {
    await sh("printf 'watched\\n' > view.txt");
    const owner = openDocument(socket(), "view.txt");
    const viewer = openDocument(socket(cookies.viewer), "view.txt");
    await Promise.all([synced(owner), synced(viewer)]);
    // The viewer's page claims to be someone else, in a colour that is not one.
    viewer.provider.setAwarenessField("user", { name: "Mallory", color: "red; background-image: url(x)" });
    viewer.provider.setAwarenessField("cursor", null);
    typeAt(viewer, 0, "viewer was here ");
    typeAt(owner, 1, "owner was here\n");
    await until(() => viewer.text().includes("owner was here"), "the viewer sees the owner's typing");
    await until(
      () => [...(owner.provider.awareness?.getStates().values() ?? [])].some((s) => s.user?.name === "Vera"),
      "the owner sees the viewer's cursor under her own name",
    );
    const labels = [...(owner.provider.awareness?.getStates().values() ?? [])]
      .map((s) => s.user)
      .filter(Boolean);
    expect(labels).toContainEqual({
      name: "Vera",
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      colorLight: expect.stringMatching(/^#[0-9a-f]{8}$/),
    });
    expect(JSON.stringify(labels)).not.toContain("Mallory");
    expect(owner.text()).not.toContain("viewer was here");
    await until(
      async () => (await disk("view.txt")) === "watched\nowner was here\n",
      "the disk has only the owner's typing",
    );
  });

  it("takes back typing done offline past the unload grace, with what the disk did meanwhile, once", async () => {
    await sh("printf 'one\\ntwo\\n' > offline.txt");
    const { copy: offline, epoch } = await copyThenLeave("offline.txt");
    // While the document rests, the person types offline and a command changes the file.
    offline.getText(COLLAB_TEXT).insert(3, " typed offline");
    await sh("printf 'one\\ntwo, from sed\\n' > offline.txt");
    const back = openDocument(socket(), "offline.txt", { doc: offline, epoch });
    await synced(back);
    const expected = "one typed offline\ntwo, from sed\n";
    await until(() => back.text() === expected, "the copy holds both changes");
    expect(back.refused()).toBeUndefined();
    await until(async () => (await disk("offline.txt")) === expected, "the disk holds both, once");
    back.provider.destroy();
  });

  it("refuses a copy from an earlier load instead of merging it twice", async () => {
    await sh("printf 'once\\n' > epoch.txt");
    const { copy: oldDoc, epoch: stale } = await copyThenLeave("epoch.txt");
    expect(stale).not.toBeNull();
    // A stop drops the workspace's resting documents: the next load is rebuilt from disk, and the
    // old copy's items are not in it.
    await t.api.workspace.stop.mutate({ workspaceId: id });
    await t.api.workspace.start.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "running");
    const again = openDocument(socket(), "epoch.txt", { doc: oldDoc, epoch: stale });
    await until(() => again.refused() !== undefined, "the old copy is refused");
    expect(again.refused()).toBe("stale-copy");
    const fresh = openDocument(socket(), "epoch.txt");
    await synced(fresh);
    expect(fresh.text()).toBe("once\n");
  });

  it("tells the editors when the file is deleted, and follows a rename", async () => {
    await sh("printf 'doomed\\n' > gone.txt; printf 'moving\\n' > from.txt");
    const doomed = openDocument(socket(), "gone.txt");
    const moving = openDocument(socket(), "from.txt");
    await Promise.all([synced(doomed), synced(moving)]);
    typeAt(moving, 1, "typed before the move\n");
    await until(async () => (await disk("from.txt")).includes("typed before"), "typing on disk");
    await sh("rm gone.txt; mv from.txt to.txt");
    await until(() => doomed.notes.some((n) => n.type === "closed"), "the deleted file's editor is told");
    expect(doomed.notes.find((n) => n.type === "closed")).toMatchObject({ reason: "deleted" });
    await until(() => moving.notes.some((n) => n.type === "closed"), "the renamed file's editor is told");
    expect(moving.notes.find((n) => n.type === "closed")).toMatchObject({ reason: "renamed", to: "to.txt" });
    expect(await sh("ls gone.txt from.txt 2>/dev/null || true")).toBe("");
  });

  it("lets the agent read what a person just typed, and shows the agent's edit under its own name", async () => {
    await sh("printf 'config\\n' > agent.txt");
    const person = openDocument(socket(), "agent.txt");
    await synced(person);
    typeAt(person, 1, "typed just now\n");
    // The service has the typing; the disk will get it only after the write-back delay.
    await until(() => !person.provider.hasUnsyncedChanges, "the service has the typing");
    const workspace = daemonWorkspace(t.service.daemons, id, t.service.collab);
    const call = (tool: string, args: Record<string, unknown>) =>
      workspace.executeTool(
        {
          tool,
          args,
          sessionId: "ses_collab",
          callId: `call_${tool}`,
          agent: "build",
          messageId: "msg_collab",
        },
        () => undefined,
        new AbortController().signal,
      );
    expect((await call("read", { path: "agent.txt" })).output).toContain("typed just now");
    const edit = await call("edit", {
      path: "agent.txt",
      old_string: "config",
      new_string: "config by the agent",
    });
    expect(edit.result.ok).toBe(true);
    await until(
      () => person.text() === "config by the agent\ntyped just now\n",
      "the agent's edit in the editor",
    );
    await until(
      () =>
        [...(person.provider.awareness?.getStates().values() ?? [])].some((s) => s.user?.name === "Agent"),
      "the agent's cursor, labelled as the agent",
    );
  });

  it("refuses binary files, and closes a socket that names a document outside the workspace", async () => {
    await sh("printf 'a\\000b' > blob.bin");
    const blob = openDocument(socket(), "blob.bin");
    await until(() => blob.refused() !== undefined, "the binary file is refused");
    expect(blob.refused()).toBe("not-text");
    // A page of its own making asks for a file outside the workspace: the whole socket closes.
    const hostile = new WebSocket(`${t.url.replace("http", "ws")}/collab/${id}/hostile`, {
      headers: { cookie: t.cookie, origin: t.url },
    });
    const closed = new Promise<number>((resolve) => hostile.on("close", resolve));
    await new Promise((resolve) => hostile.once("open", resolve));
    const auth = encoding.createEncoder();
    encoding.writeVarString(auth, "../etc/passwd");
    encoding.writeVarUint(auth, MessageType.Auth);
    encoding.writeVarUint(auth, 0);
    encoding.writeVarString(auth, JSON.stringify({ epoch: null }));
    hostile.send(encoding.toUint8Array(auth));
    expect(await closed).toBe(1008);
  });
});
