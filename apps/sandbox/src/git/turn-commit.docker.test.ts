import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelServer } from "../../../../e2e/support/model-server";
import { collectEvents } from "../agent/testing/event-view";
import { type ScriptedAgent, startScriptedAgent } from "../agent/testing/scripted-agent";
import { sessionEventStream } from "../agent/testing/sse-events";
import { execIn, type TestService } from "../testing/harness";
import { type TestUser, TestUsers } from "../testing/test-users";
import { AGENT_CO_AUTHOR } from "./turn-commit";

describe("an agent turn as a commit", () => {
  let agent: ScriptedAgent;
  let model: ModelServer;
  let t: TestService;
  let users: TestUsers;
  let ada: TestUser;
  let workspaceId: string;
  const streams = new AbortController();

  /** git in the workspace, as a terminal would run it. */
  const git = async (...args: string[]) => {
    const run = await execIn(t.instance, workspaceId, ["git", "-C", "/workspace", ...args]);
    expect(run.code, run.out).toBe(0);
    return run.out;
  };
  const read = async (file: string) => (await t.api.files.read.query({ workspaceId, path: file })).content;
  const exists = async (file: string) =>
    (await execIn(t.instance, workspaceId, ["test", "-e", `/workspace/${file}`])).code === 0;

  /** Ada prompts; the scripted model's turns run; resolves with the finished turn's ref. */
  async function adaPrompts(text: string) {
    const { id: sessionId } = await ada.api.session.create.mutate({ workspaceId });
    const events = collectEvents(sessionEventStream(t.url, ada.cookie, sessionId, streams.signal));
    const { turnId } = await ada.api.session.prompt.mutate({ sessionId, text });
    await events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 60_000);
    await events.waitFor((e) => e.type === "turn.changes" && e.turnId === turnId && e.changedFiles);
    return { sessionId, turnId };
  }

  beforeAll(async () => {
    agent = await startScriptedAgent({ workspaceName: "turn-commits" });
    ({ model, t, workspaceId } = agent);
    users = await TestUsers.open(t);
    ada = await users.create("Ada");
    await t.api.share.create.mutate({ workspaceId, role: "editor", userId: ada.userId });
    await t.api.files.write.mutate({ workspaceId, path: "app.py", content: "DEBUG = True\n" });
    await t.api.files.write.mutate({ workspaceId, path: "mine.txt", content: "mine\n" });
    await git("init", "--quiet", "--initial-branch=main");
    await git("add", "--all");
    await git("-c", "user.name=Base", "-c", "user.email=base@example.com", "commit", "--quiet", "-m", "base");
  });
  afterAll(async () => {
    streams.abort();
    await users?.close();
    await agent?.close();
  });

  it("commits exactly the turn's two files as the prompting person with the agent's trailer, leaves a person's staged file staged, and the turn still reverts", async () => {
    model.push(
      { toolCalls: [{ name: "read", args: { path: "app.py" } }] },
      {
        toolCalls: [
          { name: "edit", args: { path: "app.py", old_string: "DEBUG = True", new_string: "DEBUG = False" } },
          { name: "write", args: { path: "lib/util.py", content: "def util():\n    pass\n" } },
        ],
      },
      { text: "Done." },
    );
    const ref = await adaPrompts("turn debug off, add a util");
    // Meanwhile someone staged a change of their own.
    await t.api.files.write.mutate({ workspaceId, path: "mine.txt", content: "mine, staged\n" });
    await t.api.git.stage.mutate({ workspaceId, paths: ["mine.txt"] });

    // No message given: the model proposes one (the next answer of the script).
    model.push({ text: "Turn debug off and add a util helper" });
    const requestsBefore = model.requests.length;
    const commit = await t.api.git.commitTurn.mutate({ workspaceId, ...ref });
    expect(commit).toMatchObject({ summary: "Turn debug off and add a util helper", branch: null });
    expect(commit.paths.sort()).toEqual(["app.py", "lib/util.py"]);
    expect(model.requests.length).toBe(requestsBefore + 1);
    expect(JSON.stringify(model.requests.at(-1)?.body.messages)).toContain("turn debug off, add a util");

    expect(await git("rev-list", "--count", "HEAD")).toBe("2\n");
    expect(await git("show", "--name-only", "--format=%an <%ae>|%cn|%B", "HEAD")).toBe(
      `Ada <ada@example.com>|Ada|Turn debug off and add a util helper\n\n${AGENT_CO_AUTHOR}\n\n\napp.py\nlib/util.py\n`,
    );
    expect(await git("status", "--porcelain")).toBe("M  mine.txt\n");

    // Revert after the commit: the files are as before the turn again (so they differ from HEAD).
    await ada.api.session.revertTurn.mutate(ref);
    expect(await read("app.py")).toBe("DEBUG = True\n");
    expect(await exists("lib/util.py")).toBe(false);
    expect(await git("status", "--porcelain")).toBe(" M app.py\n D lib/util.py\nM  mine.txt\n");
    await ada.api.session.undoRevert.mutate(ref);
    expect(await git("status", "--porcelain")).toBe("M  mine.txt\n");

    const again = await t.api.git.commitTurn.mutate({ workspaceId, ...ref }).catch((e) => e);
    expect(again).toBeInstanceOf(TRPCClientError);
    expect((again as TRPCClientError<never>).message).toMatch(/no longer differ/);
    expect(await git("rev-list", "--count", "HEAD")).toBe("2\n");
  });

  it("makes a new branch from a turn, refusing a branch name git would read as another, falls back to the prompt when the model fails, and reverts an uncommitted turn", async () => {
    model.push(
      { toolCalls: [{ name: "write", args: { path: "feature.txt", content: "feature\n" } }] },
      { text: "Done." },
    );
    const ref = await adaPrompts("Add the feature file\nwith more detail below");
    const hostile = await ada.api.git.branchFromTurn
      .mutate({ workspaceId, ...ref, branch: "@{-1}", message: "x" })
      .catch((e) => e);
    expect((hostile as TRPCClientError<never>).message).toBe('"@{-1}" is not a valid branch name');
    const option = await ada.api.git.branchFromTurn
      .mutate({ workspaceId, ...ref, branch: "--force", message: "x" })
      .catch((e) => e);
    expect(option).toMatchObject({ data: { code: "BAD_REQUEST" } });
    expect(await git("branch", "--show-current")).toBe("main\n");

    model.push({ error: { status: 500, message: "the model is down" } });
    const made = await ada.api.git.branchFromTurn.mutate({ workspaceId, ...ref, branch: "agent/feature" });
    expect(made).toMatchObject({
      branch: "agent/feature",
      summary: "Add the feature file",
      paths: ["feature.txt"],
    });
    expect(await git("log", "-1", "--format=%s|%D")).toBe("Add the feature file|HEAD -> agent/feature\n");
    expect(await git("rev-parse", "main")).not.toBe(await git("rev-parse", "HEAD"));

    // A turn that nobody committed reverts as before.
    model.push(
      { toolCalls: [{ name: "read", args: { path: "feature.txt" } }] },
      {
        toolCalls: [
          {
            name: "edit",
            args: { path: "feature.txt", old_string: "feature", new_string: "feature, changed" },
          },
        ],
      },
      { text: "Done." },
    );
    const uncommitted = await adaPrompts("change the feature");
    expect(await read("feature.txt")).toBe("feature, changed\n");
    await ada.api.session.revertTurn.mutate(uncommitted);
    expect(await read("feature.txt")).toBe("feature\n");
    const nothing = await ada.api.git.commitTurn.mutate({ workspaceId, ...uncommitted }).catch((e) => e);
    expect((nothing as TRPCClientError<never>).message).toMatch(/no longer differ/);
  });

  it("lets a viewer see a turn but never commit it", async () => {
    const vera = await users.create("Vera");
    await t.api.share.create.mutate({ workspaceId, role: "viewer", userId: vera.userId });
    const [session] = await vera.api.session.list.query({ workspaceId });
    const detail = await vera.api.session.get.query({ sessionId: session?.id ?? "" });
    const turnId = detail.turns[0]?.id ?? "";
    const refusals = await Promise.all([
      vera.api.git.commitTurn.mutate({ workspaceId, sessionId: detail.session.id, turnId }).catch((e) => e),
      vera.api.git.branchFromTurn
        .mutate({ workspaceId, sessionId: detail.session.id, turnId, branch: "sneaky" })
        .catch((e) => e),
    ]);
    for (const refusal of refusals) expect(refusal).toMatchObject({ data: { code: "FORBIDDEN" } });
  });
});
