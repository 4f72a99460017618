import { AccessCloseCode } from "@coder/protocol";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collabSocket, openDocument } from "../collab/testing/collab-client";
import { connectLsp } from "../lsp/testing/lsp-client";
import { closeWithin, wsClose } from "../testing/close-within";
import {
  execIn,
  joinShare,
  openTerminal,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { until } from "../testing/until";
import { Accounts } from "./accounts";
import { SESSION_COOKIE } from "./http-auth";

/** Opens `workspace.events` over SSE as a browser would; `ended` resolves when the service ends it. */
async function openSubscription(url: string, cookie: string): Promise<{ ended: Promise<number> }> {
  const input = encodeURIComponent(JSON.stringify({}));
  const res = await fetch(`${url}/api/trpc/workspace.events?input=${input}`, {
    headers: { cookie, origin: url, accept: "text/event-stream" },
  });
  const reader = res.body?.getReader();
  if (!reader) throw new Error("the subscription has no body");
  const ended = (async () => {
    try {
      while (!(await reader.read()).done) {
        // Read until the service ends the stream.
      }
    } catch {
      // A cut connection ends it too.
    }
    return 0;
  })();
  return { ended };
}

async function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => "ok",
    (e: unknown) => (e instanceof TRPCClientError ? String(e.data?.code) : String(e)),
  );
}

describe("suspending a user", () => {
  let t: TestService;
  let miaId: string;
  let miaCookie: string;
  let workspaceId: string;
  beforeAll(async () => {
    t = await startTestService();
    const mia = await new Accounts(t.service.db).create({
      email: "mia@example.com",
      displayName: "Mia",
      siteRole: "member",
    });
    miaId = mia.id;
    miaCookie = `${SESSION_COOKIE}=${(await t.service.auth.createSession(mia.id)).cookie}`;
    const api = trpcClient(t.url, miaCookie);
    workspaceId = (await api.workspace.create.mutate({ name: "mias" })).id;
    await waitForStatus(api, workspaceId, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("closes their open terminal, language server, collaboration and live-update connections within a second, ends their workspace's links and stops it", async () => {
    const api = trpcClient(t.url, miaCookie);
    const wsUrl = t.url.replace("http", "ws");
    const terminal = await openTerminal(t.url, miaCookie, workspaceId, "main");
    await terminal.waitFor(/\$ /);
    const lsp = await connectLsp(`${wsUrl}/lsp/${workspaceId}/bash`, { cookie: miaCookie, origin: t.url });
    const made = await execIn(t.instance, workspaceId, ["sh", "-c", "echo hello > notes.txt"]);
    expect(made.code).toBe(0);
    const collab = collabSocket(t.url, miaCookie, workspaceId);
    const doc = openDocument(collab, "notes.txt");
    await until(() => doc.provider.isSynced, "the document is open");
    const events = await openSubscription(t.url, miaCookie);
    const link = await api.share.create.mutate({ workspaceId, role: "editor" });
    const guestCookie = await joinShare(t.url, link.url, "Gus");
    const guestTerminal = await openTerminal(t.url, guestCookie, workspaceId, "main");

    const closes = Promise.all([
      closeWithin(wsClose(terminal.ws), 1_000),
      closeWithin(wsClose(lsp.ws), 1_000),
      closeWithin(
        (close) => collab.on("close", ({ event }: { event: { code: number } }) => close(event.code)),
        1_000,
      ),
      closeWithin((close) => void events.ended.then(() => close(0)), 1_000),
      closeWithin(wsClose(guestTerminal.ws), 1_000),
    ]);
    const suspended = t.api.user.update.mutate({ userId: miaId, suspended: true });
    const [terminalCode, lspCode, collabCode, sse, guestCode] = await closes;
    collab.destroy();
    expect({ terminalCode, lspCode, collabCode, sse, guestCode }).toEqual({
      terminalCode: AccessCloseCode.LoggedOut,
      lspCode: AccessCloseCode.LoggedOut,
      collabCode: AccessCloseCode.LoggedOut,
      sse: 0,
      guestCode: AccessCloseCode.LinkRevoked,
    });
    expect((await suspended).suspendedAt).not.toBeNull();
    expect(await outcome(api.workspace.list.query())).toBe("UNAUTHORIZED");
    expect(await outcome(trpcClient(t.url, guestCookie).workspace.list.query())).toBe("UNAUTHORIZED");
    await waitForStatus(t.api, workspaceId, "stopped");
  });
});

describe("limits with a warm pool", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({}, { CODER_WARM_POOL: "1", CODER_DEFAULT_LIMITS: "workspaces=1,running=1" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a create past the limit before a spare is claimed, and a start past the running limit", async () => {
    const spares = () => t.service.db.selectFrom("warm_pool").select("id").execute();
    await until(async () => (await spares()).length === 1, "the pool has a spare", 120_000);
    const first = await t.api.workspace.create.mutate({ name: "first" });
    expect(first.status).toBe("running");
    await until(async () => (await spares()).length === 1, "the pool has a spare again", 120_000);
    const [spare] = await spares();
    await expect(t.api.workspace.create.mutate({ name: "second" })).rejects.toThrow(
      "you have 1 of 1 workspace; delete one to create another",
    );
    // The spare is still the pool's: the refused create never took it.
    expect(await spares()).toEqual([spare]);
    const owned = await t.service.db.selectFrom("workspaces").select("id").execute();
    expect(owned.map((w) => w.id)).toEqual([first.id]);

    // An admin lets the first admin have two, one running: the second is made, the third start refused.
    await t.api.user.update.mutate({ userId: "first-admin", limits: { workspaces: 2, running: 1 } });
    await expect(t.api.workspace.create.mutate({ name: "second" })).rejects.toThrow(
      "you have 1 of 1 running workspace; stop one to create another",
    );
    await t.api.workspace.stop.mutate({ workspaceId: first.id });
    const second = await t.api.workspace.create.mutate({ name: "second" });
    await waitForStatus(t.api, second.id, "running");
    await expect(t.api.workspace.start.mutate({ workspaceId: first.id })).rejects.toThrow(
      "you have 1 of 1 running workspace; stop one to start another",
    );
  });
});
