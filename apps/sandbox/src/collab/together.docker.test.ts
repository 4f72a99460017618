import { COLLAB_TEXT, DEFAULT_LSP_SERVERS } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daemonWorkspace } from "../agent/workspace/workspace-port";
import { daemonCommand } from "../daemon/daemon-connection";
import { execIn, joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { collabSocket, type OpenDocument, openDocument } from "./testing/collab-client";

/** While this file exists in the container, the daemon holds a checked write before it replaces the file. */
const HOLD = "/tmp/coder-hold-writes";

/**
 * People typing, the agent editing and a shell rewriting lines of one file at the same time,
 * through the real service, a real workspace container and real collaboration clients.
 */
describe("people, the agent and a shell changing one file together", () => {
  let t: TestService;
  let id: string;
  let editorCookie: string;
  const sockets: ReturnType<typeof collabSocket>[] = [];
  const open = (path: string, cookie = t.cookie) => {
    const socket = collabSocket(t.url, cookie, id);
    sockets.push(socket);
    return openDocument(socket, path);
  };
  const sh = async (script: string) => {
    const { code, out } = await execIn(t.instance, id, ["sh", "-c", script]);
    if (code !== 0) throw new Error(`${script} failed: ${out}`);
    return out;
  };
  const disk = (path: string) => sh(`cat ${path}`);
  const synced = (doc: OpenDocument) =>
    until(() => doc.provider.isSynced, `${doc.provider.configuration.name} synced`);
  const numbered = (count: number, word = "line") =>
    Array.from({ length: count }, (_, i) => `${word} ${i + 1}\n`).join("");

  /** Types `char` at the end of line `line` (0-based) every few milliseconds until stopped. */
  const keepTyping = (doc: OpenDocument, line: number, char: string) => {
    let typed = 0;
    const typeOne = () => {
      const lines = doc.text().split("\n");
      const end = lines.slice(0, line + 1).join("\n").length;
      doc.doc.getText(COLLAB_TEXT).insert(end, char);
      typed++;
    };
    const timer = setInterval(typeOne, 40);
    return {
      get typed() {
        return typed;
      },
      stop() {
        clearInterval(timer);
        return typed;
      },
    };
  };

  /** Both editors and the disk hold the same text, and the service says it is saved. */
  const converged = async (path: string, a: OpenDocument, b: OpenDocument) => {
    await until(() => !a.provider.hasUnsyncedChanges && !b.provider.hasUnsyncedChanges, "typing sent");
    await until(
      async () => a.text() === b.text() && (await disk(path)) === a.text(),
      "both editors and the disk agree",
      30_000,
    );
    return a.text();
  };

  beforeAll(async () => {
    t = await startTestService({
      daemon: { command: ["env", `CODER_DAEMON_HOLD_WRITES=${HOLD}`, ...daemonCommand(DEFAULT_LSP_SERVERS)] },
    });
    id = (await t.api.workspace.create.mutate({ name: "together" })).id;
    await waitForStatus(t.api, id, "running");
    const link = await t.api.share.create.mutate({ workspaceId: id, role: "editor" });
    editorCookie = await joinShare(t.url, link.url, "Ed");
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await t?.close();
  });

  it("lets the agent read and edit line 3 while two people type on lines 1 and 2 and a shell rewrites line 4", async () => {
    await sh(`printf '${numbered(6)}' > together.txt`);
    const owner = open("together.txt");
    const editor = open("together.txt", editorCookie);
    await Promise.all([synced(owner), synced(editor)]);
    const ownerTyping = keepTyping(owner, 0, "o");
    const editorTyping = keepTyping(editor, 1, "e");
    const workspace = daemonWorkspace(t.service.daemons, id, t.service.collab);
    const call = (tool: string, args: Record<string, unknown>) =>
      workspace.executeTool(
        {
          tool,
          args,
          sessionId: "ses_together",
          callId: `call_${tool}`,
          agent: "build",
          messageId: "msg_together",
        },
        () => undefined,
        new AbortController().signal,
      );

    const read = await call("read", { path: "together.txt" });
    expect(read.result.ok).toBe(true);
    const readFirstLine = String(read.result.content).split("\n")[0];
    // The typing reaches the disk after the read: the file the agent edits is not the one it read.
    await until(async () => (await disk("together.txt")).split("\n")[0] !== readFirstLine, "typing on disk");
    const [edit] = await Promise.all([
      call("edit", { path: "together.txt", old_string: "line 3", new_string: "line 3 edited by the agent" }),
      sh("sed -i 's/^line 4$/line 4 from sed/' together.txt"),
    ]);
    expect(edit.output).not.toContain("Error");
    expect(edit.result.ok).toBe(true);
    const typed = [ownerTyping.stop(), editorTyping.stop()];

    const text = await converged("together.txt", owner, editor);
    expect(text).toBe(
      [
        `line 1${"o".repeat(typed[0] ?? 0)}`,
        `line 2${"e".repeat(typed[1] ?? 0)}`,
        "line 3 edited by the agent",
        "line 4 from sed",
        "line 5",
        "line 6",
        "",
      ].join("\n"),
    );
  });

  it("keeps a shell's change made while the write-back of typing waits between its check and its write", async () => {
    await sh(`printf '${numbered(12)}' > race.txt`);
    const owner = open("race.txt");
    const editor = open("race.txt", editorCookie);
    await Promise.all([synced(owner), synced(editor)]);
    // The next write-back passes its check and then waits; the shell rewrites line 11 in the gap.
    await sh(`touch ${HOLD}`);
    owner.doc.getText(COLLAB_TEXT).insert("line 1".length, " typed by the owner");
    editor.doc.getText(COLLAB_TEXT).insert(editor.text().indexOf("line 2") + "line 2".length, " typed by Ed");
    await until(
      async () => (await sh(`ls ${HOLD}.held 2>/dev/null || true`)) !== "",
      "the write-back is held",
    );
    await sh("sed -i 's/^line 11$/line 11 from sed/' race.txt");
    await sh(`rm ${HOLD}`);

    const text = await converged("race.txt", owner, editor);
    expect(text.split("\n").slice(0, 3)).toEqual([
      "line 1 typed by the owner",
      "line 2 typed by Ed",
      "line 3",
    ]);
    expect(text.split("\n")[10]).toBe("line 11 from sed");
  });

  it("keeps every one of 20 shell rewrites of 20 lines made while two people type continuously", async () => {
    await sh(`printf '${numbered(24)}' > rewrites.txt`);
    const owner = open("rewrites.txt");
    const editor = open("rewrites.txt", editorCookie);
    await Promise.all([synced(owner), synced(editor)]);
    const ownerTyping = keepTyping(owner, 0, "o");
    const editorTyping = keepTyping(editor, 1, "e");
    const rewritten = Array.from({ length: 20 }, (_, i) => i + 3);
    for (const n of rewritten) await sh(`sed -i 's/^line ${n}$/line ${n} rewritten/' rewrites.txt`);
    const typed = [ownerTyping.stop(), editorTyping.stop()];

    const lines = (await converged("rewrites.txt", owner, editor)).split("\n");
    expect(rewritten.filter((n) => lines[n - 1] !== `line ${n} rewritten`)).toEqual([]);
    expect(lines.slice(0, 2)).toEqual([
      `line 1${"o".repeat(typed[0] ?? 0)}`,
      `line 2${"e".repeat(typed[1] ?? 0)}`,
    ]);
    expect(lines.slice(22)).toEqual(["line 23", "line 24", ""]);
  });
});
