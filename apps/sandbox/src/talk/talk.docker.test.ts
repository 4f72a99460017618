import { TALK_MAX_CHARS, TALK_RATE_MESSAGES, type TalkLine, type TalkUpdate } from "@coder/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../db/testing/test-database";
import {
  joinShare,
  type SharedPlace,
  sharedPlace,
  startTestService,
  type TestService,
  trpcClient,
  waitForStatus,
} from "../testing/harness";
import { TestUsers } from "../testing/test-users";
import { subscriptionEvents } from "../testing/trpc-sse";
import { until } from "../testing/until";

/** A person's live view of the talk: every line and the latest setting, as `talk.watch` sends them. */
function watchTalk(url: string, cookie: string, workspaceId: string, signal: AbortSignal) {
  const seen = { lines: [] as TalkLine[], latest: undefined as TalkUpdate | undefined, error: "" };
  void (async () => {
    for await (const update of subscriptionEvents<TalkUpdate>(
      url,
      cookie,
      "talk.watch",
      { workspaceId },
      signal,
    )) {
      seen.lines.push(...update.lines);
      seen.latest = update;
    }
  })().catch((error: Error) => {
    seen.error = error.message;
  });
  return seen;
}

/** One tab of a person on the workspace (presence), open until `signal` aborts. */
function openTab(url: string, cookie: string, workspaceId: string, clientId: string, signal: AbortSignal) {
  void (async () => {
    for await (const _ of subscriptionEvents(
      url,
      cookie,
      "presence.watch",
      { workspaceId, clientId },
      signal,
    )) {
      // Being on the board is all this tab does.
    }
  })().catch(() => undefined);
}

const said = (lines: TalkLine[]) =>
  lines.map(
    (l) => `${l.person.name}${l.person.guest ? " (guest)" : ""} ${l.kind}${l.text ? `: ${l.text}` : ""}`,
  );

describe("the people's talk of a workspace, over the wire (SQLite)", () => {
  let t: TestService;
  let workspaceId: string;
  const cookies: Record<string, string> = {};
  const streams = new AbortController();
  const share = async (on: string, role: "viewer" | "editor", name: string) => {
    const link = await t.api.share.create.mutate({ workspaceId: on, role });
    return { id: link.id, cookie: await joinShare(t.url, link.url, name) };
  };
  beforeAll(async () => {
    t = await startTestService();
    workspaceId = (await t.api.workspace.create.mutate({ name: "talking" })).id;
    const elsewhere = (await t.api.workspace.create.mutate({ name: "elsewhere" })).id;
    await waitForStatus(t.api, workspaceId, "running");
    await waitForStatus(t.api, elsewhere, "running");
    cookies.viewer = (await share(workspaceId, "viewer", "Vera")).cookie;
    cookies.editor = (await share(workspaceId, "editor", "Ed")).cookie;
    cookies.elsewhere = (await share(elsewhere, "editor", "Olga")).cookie;
  });
  afterAll(async () => {
    streams.abort();
    await t?.close();
  });

  it("shows a viewer's message live to the owner and the editor, under the viewer's login name with the guest mark", async () => {
    const owner = watchTalk(t.url, t.cookie, workspaceId, streams.signal);
    const editor = watchTalk(t.url, cookies.editor ?? "", workspaceId, streams.signal);
    await until(() => owner.latest !== undefined && editor.latest !== undefined, "both watch");
    const viewer = trpcClient(t.url, cookies.viewer);
    // A name in the request would be ignored: the input has no such field, the author is the login.
    const sent = await viewer.talk.send.mutate({ workspaceId, text: "<img src=x onerror=alert(1)> hi" });
    expect(sent).toMatchObject({
      kind: "message",
      person: { name: "Vera", role: "viewer", guest: true },
      mine: true,
    });
    for (const seen of [owner, editor]) {
      await until(() => seen.lines.some((l) => l.id === sent.id), "the message arrives");
      expect(seen.lines.find((l) => l.id === sent.id)).toMatchObject({
        person: { name: "Vera", role: "viewer", guest: true },
        text: "<img src=x onerror=alert(1)> hi",
        mine: false,
      });
    }
    const listed = await t.api.talk.list.query({ workspaceId });
    expect(said(listed.lines)).toContain("Vera (guest) message: <img src=x onerror=alert(1)> hi");
  });

  it("gives a page that asks again with its last line's id only the newer lines, and the whole talk to one asking first", async () => {
    const editor = trpcClient(t.url, cookies.editor);
    const whole = await editor.talk.list.query({ workspaceId });
    const last = whole.lines.at(-1)?.id ?? 0;
    expect(await editor.talk.list.query({ workspaceId, after: last })).toEqual({
      lines: [],
      viewersMayWrite: true,
      youMayWrite: true,
    });
    const first = await t.api.talk.send.mutate({ workspaceId, text: "news one" });
    const second = await t.api.talk.send.mutate({ workspaceId, text: "news two" });
    const newer = await editor.talk.list.query({ workspaceId, after: last });
    expect(newer.lines.map((l) => [l.kind, l.text, l.mine])).toEqual([
      ["message", "news one", false],
      ["message", "news two", false],
    ]);
    expect((await editor.talk.list.query({ workspaceId, after: first.id })).lines.map((l) => l.id)).toEqual([
      second.id,
    ]);
    // Without `after` the talk comes whole, as on a page's first look.
    const again = await editor.talk.list.query({ workspaceId });
    expect(again.lines).toEqual([...whole.lines, ...newer.lines]);
    await expect(editor.talk.list.query({ workspaceId, after: -1 })).rejects.toThrow(/too small|>=0/);
  });

  it(`refuses a message longer than ${TALK_MAX_CHARS} characters and one of blanks only`, async () => {
    const editor = trpcClient(t.url, cookies.editor);
    await expect(
      editor.talk.send.mutate({ workspaceId, text: "x".repeat(TALK_MAX_CHARS + 1) }),
    ).rejects.toThrow(`at most ${TALK_MAX_CHARS} characters`);
    await expect(editor.talk.send.mutate({ workspaceId, text: " \n " })).rejects.toThrow("cannot be empty");
    const longest = await editor.talk.send.mutate({ workspaceId, text: "y".repeat(TALK_MAX_CHARS) });
    expect(longest.text).toHaveLength(TALK_MAX_CHARS);
  });

  it(`refuses a person's message beyond ${TALK_RATE_MESSAGES} in 10 seconds with a plain "too fast", others still write`, async () => {
    const rita = trpcClient(t.url, (await share(workspaceId, "editor", "Rita")).cookie);
    for (let i = 0; i < TALK_RATE_MESSAGES; i++)
      await rita.talk.send.mutate({ workspaceId, text: `quick ${i}` });
    await expect(rita.talk.send.mutate({ workspaceId, text: "one too many" })).rejects.toThrow(
      /sending messages too fast: at most 10 every 10 seconds; try again in \d+ s/,
    );
    await expect(
      t.api.talk.send.mutate({ workspaceId, text: "the owner is not slowed" }),
    ).resolves.toBeTruthy();
  });

  it("refuses a viewer once the owner turned viewers' writing off, and tells the viewer's watch", async () => {
    const viewerWatch = watchTalk(t.url, cookies.viewer ?? "", workspaceId, streams.signal);
    await until(() => viewerWatch.latest?.youMayWrite === true, "the viewer may write");
    const viewer = trpcClient(t.url, cookies.viewer);
    await expect(
      viewer.talk.setViewersMayWrite.mutate({ workspaceId, viewersMayWrite: false }),
    ).rejects.toThrow("this needs the owner role");
    await t.api.talk.setViewersMayWrite.mutate({ workspaceId, viewersMayWrite: false });
    await until(() => viewerWatch.latest?.youMayWrite === false, "the viewer's watch says no writing");
    expect(viewerWatch.latest?.viewersMayWrite).toBe(false);
    await expect(viewer.talk.send.mutate({ workspaceId, text: "still here?" })).rejects.toThrow(
      "the owner has turned off writing for viewers",
    );
    // An editor still writes, and the viewer still reads.
    const fromEd = await trpcClient(t.url, cookies.editor).talk.send.mutate({
      workspaceId,
      text: "viewers listen now",
    });
    await until(() => viewerWatch.lines.some((l) => l.id === fromEd.id), "the viewer reads on");
    await t.api.talk.setViewersMayWrite.mutate({ workspaceId, viewersMayWrite: true });
    await until(() => viewerWatch.latest?.youMayWrite === true, "the viewer may write again");
    await expect(viewer.talk.send.mutate({ workspaceId, text: "thanks" })).resolves.toBeTruthy();
  });

  it("lets a guest of another workspace neither read nor write it", async () => {
    const olga = trpcClient(t.url, cookies.elsewhere);
    await expect(olga.talk.list.query({ workspaceId })).rejects.toThrow(
      "you have no access to that workspace",
    );
    await expect(olga.talk.send.mutate({ workspaceId, text: "hello?" })).rejects.toThrow(
      "you have no access to that workspace",
    );
    const watching = watchTalk(t.url, cookies.elsewhere ?? "", workspaceId, streams.signal);
    await until(() => watching.error !== "", "the watch is refused");
    expect(watching.error).toContain("FORBIDDEN");
    expect(said((await t.api.talk.list.query({ workspaceId })).lines).join("\n")).not.toContain("hello?");
  });

  it("tells everyone when a person joins, leaves, and when a guest's link is revoked", async () => {
    const owner = watchTalk(t.url, t.cookie, workspaceId, streams.signal);
    const paula = await share(workspaceId, "viewer", "Paula");
    const rex = await share(workspaceId, "editor", "Rex");
    const paulaTab = new AbortController();
    openTab(t.url, paula.cookie, workspaceId, "paula-tab-1", paulaTab.signal);
    openTab(t.url, rex.cookie, workspaceId, "rex-tab-1", streams.signal);
    await until(() => said(owner.lines).includes("Paula (guest) joined"), "Paula's join is told");
    await until(() => said(owner.lines).includes("Rex (guest) joined"), "Rex's join is told");
    paulaTab.abort();
    await until(() => said(owner.lines).includes("Paula (guest) left"), "Paula's leave is told");
    await t.api.share.revoke.mutate({ shareId: rex.id });
    await until(() => said(owner.lines).includes("Rex (guest) revoked"), "Rex's revocation is told");
    expect(owner.lines.find((l) => l.kind === "revoked")?.person).toEqual({
      name: "Rex",
      role: "editor",
      guest: true,
    });
  });

  it("tells everyone when the owner ends the share of a person named, under their account's name", async () => {
    const users = await TestUsers.open(t);
    try {
      const nia = await users.create("Nia");
      await t.api.share.create.mutate({ workspaceId, role: "editor", userId: nia.userId });
      const owner = watchTalk(t.url, t.cookie, workspaceId, streams.signal);
      openTab(t.url, nia.cookie, workspaceId, "nia-tab-1", streams.signal);
      await until(() => said(owner.lines).includes("Nia joined"), "Nia's join is told");
      await t.api.share.revoke.mutate({ workspaceId, userId: nia.userId });
      await until(() => said(owner.lines).includes("Nia revoked"), "Nia's revocation is told");
      expect(owner.lines.findLast((l) => l.kind === "revoked")?.person).toEqual({
        name: "Nia",
        role: "editor",
        guest: false,
      });
    } finally {
      await users.close();
    }
  });
});

describe("the people's talk across two service instances on one PostgreSQL database", () => {
  let place: SharedPlace | undefined;
  const streams = new AbortController();
  afterAll(async () => {
    streams.abort();
    await place?.close();
  });

  it("shows a line sent through one instance, a join on it and the owner's setting live through the other", async () => {
    place = sharedPlace({ CODER_DATABASE_URL: await createPostgresDatabase() });
    const a = await place.start();
    const b = await place.start();
    const { id: workspaceId } = await a.api.workspace.create.mutate({ name: "two instances" });
    await waitForStatus(a.api, workspaceId, "running");
    const link = await a.api.share.create.mutate({ workspaceId, role: "viewer" });
    const vera = await joinShare(b.service.url, link.url.replace(a.service.url, b.service.url), "Vera");
    const onA = watchTalk(a.service.url, a.cookie, workspaceId, streams.signal);
    const veraOnB = watchTalk(b.service.url, vera, workspaceId, streams.signal);
    await until(() => onA.latest !== undefined && veraOnB.latest?.youMayWrite === true, "both watch");
    openTab(b.service.url, vera, workspaceId, "vera-tab-1", streams.signal);
    await until(() => said(onA.lines).includes("Vera (guest) joined"), "Vera's join on B reaches A");
    const sent = await trpcClient(b.service.url, vera).talk.send.mutate({ workspaceId, text: "through B" });
    await until(
      () => onA.lines.some((l) => l.id === sent.id && l.text === "through B"),
      "B's line reaches A",
    );
    await a.api.talk.setViewersMayWrite.mutate({ workspaceId, viewersMayWrite: false });
    await until(() => veraOnB.latest?.youMayWrite === false, "A's setting reaches Vera on B");
    await expect(
      trpcClient(b.service.url, vera).talk.send.mutate({ workspaceId, text: "refused on B" }),
    ).rejects.toThrow("the owner has turned off writing for viewers");
  });
});
