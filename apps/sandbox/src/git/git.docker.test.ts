import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { GitEvent } from "@coder/protocol";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitServer, hostGit, makeRepository, startGitServer } from "../imports/testing/git-server";
import { execIn, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { type TestUser, TestUsers } from "../testing/test-users";
import { until } from "../testing/until";

const lines = (n: number, change: Record<number, string> = {}) =>
  `${Array.from({ length: n }, (_, i) => change[i] ?? `line ${i}`).join("\n")}\n`;

/** Follows the workspace's git feed (what `git.events` streams) into `events` until the returned stop. */
function follow(t: TestService, workspaceId: string, events: GitEvent[]): () => void {
  const abort = new AbortController();
  void (async () => {
    for await (const e of t.service.daemons.gitFeed(workspaceId).subscribe(undefined, abort.signal)) {
      if (e.kind === "event") events.push(e.item.data);
    }
  })();
  return () => abort.abort();
}

describe("source control through the service", () => {
  let server: GitServer;
  let t: TestService;
  let users: TestUsers;
  let ada: TestUser;
  let workspaceId: string;
  const bare = () => path.join(server.root, "shared.git");

  beforeAll(async () => {
    server = await startGitServer((root) => {
      makeRepository(root, "shared");
      // git http-backend takes pushes only from a logged-in user unless the repository says so.
      hostGit(path.join(root, "shared.git"), "config", "http.receivepack", "true");
    });
    t = await startTestService({}, { CODER_EGRESS_ALLOW: server.allow });
    users = await TestUsers.open(t);
    ada = await users.create("Ada");
    workspaceId = (
      await ada.api.workspace.create.mutate({
        name: "repo",
        egress: true,
        source: { type: "git", url: `${server.url}/shared.git` },
      })
    ).id;
    await waitForStatus(ada.api, workspaceId, "running");
  });
  afterAll(async () => {
    await users?.close();
    await t?.close();
    await server?.close();
  });

  it("stages one hunk of two, commits it as the acting person, pushes it, and pulls a change made upstream", async () => {
    const api = ada.api;
    await api.files.write.mutate({ workspaceId, path: "notes.txt", content: lines(40) });
    await until(
      async () => (await api.git.status.query({ workspaceId })).files.length === 1,
      "notes.txt untracked",
    );
    await api.git.stage.mutate({ workspaceId, paths: ["notes.txt"] });
    await api.git.commit.mutate({ workspaceId, message: "notes" });

    await api.files.write.mutate({
      workspaceId,
      path: "notes.txt",
      content: lines(40, { 2: "first change", 36: "second change" }),
    });
    const diff = await api.git.diff.query({ workspaceId, path: "notes.txt" });
    const [header, firstHunk, secondHunk] = diff.patch.split(/(?=^@@)/m);
    expect(secondHunk).toContain("+second change");
    await api.git.stage.mutate({ workspaceId, paths: ["notes.txt"], patch: `${header}${firstHunk}` });
    const status = await api.git.status.query({ workspaceId });
    expect(status).toMatchObject({ repository: true, branch: "main", upstream: "origin/main", ahead: 1 });
    expect(status.files).toEqual([{ path: "notes.txt", kind: "changed", index: "M", worktree: "M" }]);
    const commit = await api.git.commit.mutate({ workspaceId, message: "the first change" });

    const events: GitEvent[] = [];
    const stop = follow(t, workspaceId, events);
    try {
      const pushed = await api.git.push.mutate({ workspaceId, progressId: "push-1" });
      expect(pushed.message).toMatch(/main -> main/);
      expect(hostGit(bare(), "log", "-1", "--format=%H %an <%ae> %s", "main").trim()).toBe(
        `${commit.hash} Ada <ada@example.com> the first change`,
      );
      const upstreamFile = hostGit(bare(), "show", "main:notes.txt");
      expect(upstreamFile).toContain("first change");
      expect(upstreamFile).not.toContain("second change");
      await until(() => events.some((e) => e.type === "changed"), "the panels hear that the refs moved");
      expect(events.some((e) => e.type === "progress" && e.progressId === "push-1")).toBe(true);
    } finally {
      stop();
    }
    expect(await api.git.status.query({ workspaceId })).toMatchObject({ ahead: 0, behind: 0 });

    // Someone else pushes to the same repository; a pull brings it in without a conflict.
    const elsewhere = mkdtempSync(path.join(tmpdir(), "coder-upstream-"));
    try {
      hostGit(elsewhere, "clone", "--quiet", bare(), ".");
      writeFileSync(path.join(elsewhere, "upstream.txt"), "from upstream\n");
      hostGit(elsewhere, "add", "upstream.txt");
      hostGit(elsewhere, "commit", "--quiet", "-m", "upstream work");
      hostGit(elsewhere, "push", "--quiet", "origin", "main");
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    await api.git.fetch.mutate({ workspaceId });
    expect(await api.git.status.query({ workspaceId })).toMatchObject({ ahead: 0, behind: 1 });
    await api.git.pull.mutate({ workspaceId });
    expect((await execIn(t.instance, workspaceId, ["cat", "/workspace/upstream.txt"])).out).toBe(
      "from upstream\n",
    );
    const log = await api.git.log.query({ workspaceId, limit: 3 });
    expect(log.map((c) => c.subject)).toEqual(["upstream work", "the first change", "notes"]);
    // The other hunk is still there, unstaged.
    const left = await api.git.diff.query({ workspaceId, path: "notes.txt" });
    expect(left.patch).toContain("+second change");
  });

  it("creates a branch, pushes it with its upstream, and records commits, pushes and checkouts in the audit trail", async () => {
    const api = ada.api;
    await api.git.checkout.mutate({ workspaceId, branch: "topic", create: true });
    await api.git.push.mutate({ workspaceId, setUpstream: true });
    expect(hostGit(bare(), "branch", "--list", "topic").trim()).toBe("topic");
    const branches = await api.git.branches.query({ workspaceId });
    expect(branches.branches.find((b) => b.current)).toMatchObject({
      name: "topic",
      upstream: "origin/topic",
    });
    await api.git.checkout.mutate({ workspaceId, branch: "main" });
    const recorded = async () =>
      (await api.audit.list.query({ filters: { workspaceId } })).entries
        .filter((e) => e.action.startsWith("git.") && e.actor.name === "Ada")
        .map((e) => e.action);
    await until(async () => {
      const actions = new Set(await recorded());
      return ["git.committed", "git.pushed", "git.checked_out"].every((a) => actions.has(a));
    }, "commits, pushes and checkouts in the audit trail");
  });

  it("answers git's own message when a push is refused", async () => {
    await execIn(t.instance, workspaceId, [
      "git",
      "-C",
      "/workspace",
      "remote",
      "add",
      "nowhere",
      `${server.url}/missing.git`,
    ]);
    const failure = await ada.api.git.push
      .mutate({ workspaceId, remote: "nowhere", branch: "main" })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(TRPCClientError);
    expect((failure as TRPCClientError<never>).message).toMatch(/not found|repository .* not found|404/i);
  });

  it("never runs a hostile repository's hooks, hooksPath, credential helper or fsmonitor", async () => {
    const hostile = [
      "set -e",
      "cd /workspace",
      "mkdir -p .git/hooks .git/evil-hooks",
      "printf '#!/bin/sh\\ntouch /tmp/ran-pre-commit\\n' > .git/hooks/pre-commit",
      "printf '#!/bin/sh\\ntouch /tmp/ran-hooks-path\\n' > .git/evil-hooks/pre-commit",
      "printf '#!/bin/sh\\ntouch /tmp/ran-pre-push\\n' > .git/hooks/pre-push",
      "chmod +x .git/hooks/pre-commit .git/hooks/pre-push .git/evil-hooks/pre-commit",
      "git config core.hooksPath /workspace/.git/evil-hooks",
      "git config credential.helper '!touch /tmp/ran-credential-helper; echo'",
      "git config core.fsmonitor 'touch /tmp/ran-fsmonitor; true'",
      `git remote add private ${server.url}/private.git`,
    ].join("\n");
    expect((await execIn(t.instance, workspaceId, ["sh", "-c", hostile])).code).toBe(0);
    const api = ada.api;
    await api.files.write.mutate({ workspaceId, path: "hostile.txt", content: "x\n" });
    await until(
      async () => (await api.git.status.query({ workspaceId })).files.some((f) => f.path === "hostile.txt"),
      "hostile.txt in the status",
    );
    await api.git.stage.mutate({ workspaceId, paths: ["hostile.txt"] });
    await api.git.commit.mutate({ workspaceId, message: "hostile" });
    await api.git.log.query({ workspaceId, limit: 1 });
    // The private repository wants a password: git would ask the repository's helper for one.
    const failure = await api.git.push
      .mutate({ workspaceId, remote: "private", branch: "main" })
      .catch((e) => e);
    expect((failure as Error).message).toMatch(
      /Authentication failed|could not read Username|terminal prompts disabled/i,
    );
    const ran = await execIn(t.instance, workspaceId, ["sh", "-c", "ls /tmp | grep '^ran-' || true"]);
    expect(ran.out).toBe("");
  });

  it("lets a viewer read the repository and change nothing", async () => {
    const vera = await users.create("Vera");
    await ada.api.share.create.mutate({ workspaceId, role: "viewer", userId: vera.userId });
    const before = await ada.api.git.status.query({ workspaceId });
    expect(await vera.api.git.status.query({ workspaceId })).toEqual(before);
    await vera.api.git.log.query({ workspaceId, limit: 5 });
    await vera.api.git.branches.query({ workspaceId });
    const refusals = await Promise.all([
      vera.api.git.commit.mutate({ workspaceId, message: "sneaky", amend: true }).catch((e) => e),
      vera.api.git.checkout.mutate({ workspaceId, branch: "sneaky", create: true }).catch((e) => e),
      vera.api.git.push.mutate({ workspaceId }).catch((e) => e),
      vera.api.git.discard.mutate({ workspaceId, paths: ["notes.txt"] }).catch((e) => e),
    ]);
    for (const refusal of refusals) expect(refusal).toMatchObject({ data: { code: "FORBIDDEN" } });
    expect(await ada.api.git.status.query({ workspaceId })).toEqual(before);
  });
});
