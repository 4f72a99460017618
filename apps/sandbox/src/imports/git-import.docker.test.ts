import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ImportProgress, Workspace } from "@coder/protocol";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runningJobConfigs } from "../docker/testing/engine-probes";
import { execIn, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { type GitServer, makeRepository, startGitServer } from "./testing/git-server";

/** Polls until the workspace fails; returns it (its `detail` says why). */
async function waitForError(t: TestService, workspaceId: string, timeoutMs = 60_000): Promise<Workspace> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ws = await t.api.workspace.get.query({ workspaceId });
    if (ws.status === "error") return ws;
    if (ws.status === "running") throw new Error("the workspace came up although its import should fail");
    if (Date.now() > deadline) throw new Error(`workspace still ${ws.status} after ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** A bare repository whose tree holds a `.git/hooks/post-checkout` that would run on checkout. */
function makeHookRepository(root: string): void {
  const repo = path.join(root, "hooked.git");
  execFileSync("git", ["init", "--quiet", "--bare", repo]);
  const run = (args: string[], input?: Buffer) =>
    execFileSync("git", args, {
      cwd: repo,
      input,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    })
      .toString()
      .trim();
  const hook = run(["hash-object", "-w", "--stdin"], Buffer.from("#!/bin/sh\ntouch /workspace/hook-ran\n"));
  const entry = (mode: string, name: string, sha: string) =>
    Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(sha, "hex")]);
  const tree = (...entries: Buffer[]) =>
    run(["hash-object", "-w", "--literally", "-t", "tree", "--stdin"], Buffer.concat(entries));
  const hooks = tree(entry("100755", "post-checkout", hook));
  const dotGit = tree(entry("40000", "hooks", hooks));
  const top = tree(entry("40000", ".git", dotGit));
  const commit = run([
    "-c",
    "user.name=T",
    "-c",
    "user.email=t@example.invalid",
    "commit-tree",
    top,
    "-m",
    "hooked",
  ]);
  run(["update-ref", "refs/heads/main", commit]);
  run(["symbolic-ref", "HEAD", "refs/heads/main"]);
}

/**
 * A repository whose submodule points at a local path that exists where it is cloned (/workspace,
 * the clone itself): followed, that would be a local clone.
 */
function makeLocalSubmoduleRepository(root: string): void {
  const work = path.join(root, "withsub-work");
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  const run = (...args: string[]) => execFileSync("git", args, { cwd: work, env });
  execFileSync("git", ["init", "--quiet", "--initial-branch=main", work], { env });
  const submodule = path.join(root, "public.git");
  run("-c", "protocol.file.allow=always", "submodule", "--quiet", "add", submodule, "sub");
  run("config", "-f", ".gitmodules", "submodule.sub.url", "/workspace");
  run("add", ".gitmodules");
  run("-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "--quiet", "-m", "submodule");
  execFileSync("git", ["clone", "--quiet", "--bare", work, path.join(root, "withsub.git")], { env });
}

describe("a workspace created from a git URL", () => {
  let server: GitServer;
  let t: TestService;
  const logLines: string[] = [];

  beforeAll(async () => {
    server = await startGitServer((root) => {
      // Over the 8 MB limit below whatever the compression: random bytes.
      makeRepository(root, "big", { "blob.bin": randomBytes(12 * 1024 * 1024) });
      makeHookRepository(root);
      makeLocalSubmoduleRepository(root);
    });
    t = await startTestService(
      {},
      { CODER_EGRESS_ALLOW: server.allow, CODER_IMPORT_MAX_MB: "8", CODER_IMPORT_TIMEOUT_S: "6" },
      (line) => logLines.push(line),
    );
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const create = (name: string, source: Record<string, unknown>) =>
    t.api.workspace.create.mutate({ name, source: { type: "git", ...source } as never });

  it("holds the repository's default branch, shows the clone's progress, and keeps no network itself", async () => {
    const progress: ImportProgress[] = [];
    const abort = new AbortController();
    const watching = (async () => {
      for await (const e of t.service.workspaces.events.subscribe(undefined, abort.signal)) {
        if (e.kind === "event" && e.item.data.type === "upsert" && e.item.data.workspace.import?.progress)
          progress.push(e.item.data.workspace.import.progress);
      }
    })();
    const { id } = await create("public", { url: `${server.url}/public.git` });
    const ws = await waitForStatus(t.api, id, "running");
    abort.abort();
    await watching;
    expect(ws.import).toMatchObject({
      state: "done",
      origin: { type: "git", url: `${server.url}/public.git` },
    });
    expect((await execIn(t.instance, id, ["cat", "README.md"])).out).toBe("second\n");
    expect((await execIn(t.instance, id, ["git", "log", "--format=%s"])).out).toBe("second\nfirst\n");
    expect((await execIn(t.instance, id, ["ls", "/sys/class/net"])).out.trim()).toBe("lo");
    expect(progress.map((p) => p.phase)).toContain("connecting");
    expect(progress.some((p) => p.phase === "receiving" && p.percent === 100)).toBe(true);
  });

  it("checks out a branch or a tag when asked", async () => {
    const branch = await create("branch", { url: `${server.url}/public.git`, ref: "feature" });
    const tag = await create("tag", { url: `${server.url}/public.git`, ref: "v1", depth: 1 });
    await Promise.all([waitForStatus(t.api, branch.id, "running"), waitForStatus(t.api, tag.id, "running")]);
    expect((await execIn(t.instance, branch.id, ["cat", "feature.txt"])).out).toBe("on the branch\n");
    expect((await execIn(t.instance, tag.id, ["cat", "README.md"])).out).toBe("first\n");
    expect((await execIn(t.instance, tag.id, ["git", "rev-list", "--count", "HEAD"])).out.trim()).toBe("1");
  });

  it("clones a private repository with a token, after a retry, and leaves no trace of the token", async () => {
    const { id } = await create("private", { url: `${server.url}/private.git` });
    const failed = await waitForError(t, id);
    expect(failed.detail).toMatch(/asks for a login: give a token/);
    expect(failed.import?.state).toBe("failed");

    await t.api.workspace.retryImport.mutate({ workspaceId: id, token: server.token });
    const retried = await waitForStatus(t.api, id, "running");
    expect(retried.import?.origin).toMatchObject({ type: "git", private: true });
    expect((await execIn(t.instance, id, ["cat", "secret.txt"])).out).toBe("private content\n");

    // The clone job's configuration, read from the engine while it runs (a slow clone of the same repository).
    const jobs = new Set<string>();
    const watching = new AbortController();
    const watch = (async () => {
      while (!watching.signal.aborted) {
        for (const config of await runningJobConfigs(t.instance)) jobs.add(config);
        await sleep(50);
      }
    })();
    const direct = await create("private-direct", {
      url: `${server.url}/slow/private.git`,
      token: server.token,
    });
    await waitForStatus(t.api, direct.id, "running");
    watching.abort();
    await watch;
    expect(jobs.size).toBeGreaterThan(0);
    for (const config of jobs.values()) expect(config).not.toContain(server.token);

    for (const workspace of [id, direct.id]) {
      const found = await execIn(t.instance, workspace, ["grep", "-rl", "--", server.token, "/workspace"]);
      expect(found.out, "the token is in the workspace").toBe("");
      const config = await execIn(t.instance, workspace, ["cat", ".git/config"]);
      expect(config.out).toMatch(new RegExp(`url = ${server.url}(/slow)?/private.git`));
    }
    for (const file of readdirSync(t.dataDir)) {
      if (!/\.(db|sqlite)/.test(file)) continue;
      expect(readFileSync(path.join(t.dataDir, file)).includes(server.token), `${file} holds the token`).toBe(
        false,
      );
    }
    expect(logLines.join("\n")).not.toContain(server.token);
  });

  it("fails with a plain message when the server does not answer, and the workspace can be deleted", async () => {
    const { id } = await create("silent", { url: server.silentUrl });
    const failed = await waitForError(t, id);
    expect(failed.detail).toBe("the import did not finish within 6 s (CODER_IMPORT_TIMEOUT_S)");
    await t.api.workspace.delete.mutate({ workspaceId: id });
    expect((await t.api.workspace.list.query()).some((w) => w.id === id)).toBe(false);
  });

  it("stops a repository over the size limit", async () => {
    const { id } = await create("big", { url: `${server.url}/big.git` });
    const failed = await waitForError(t, id);
    expect(failed.detail).toBe(
      "the repository is larger than the import limit of 8 MB (CODER_IMPORT_MAX_MB)",
    );
  });

  it("refuses a redirect, and a repository whose tree smuggles in a .git folder", async () => {
    const redirected = await create("redirected", { url: `${server.url}/redirect/public.git` });
    const hooked = await create("hooked", { url: `${server.url}/hooked.git` });
    expect((await waitForError(t, redirected.id)).detail).toMatch(
      /^git clone failed: .*returned error: 302/s,
    );
    const refused = await waitForError(t, hooked.id);
    expect(refused.detail).toMatch(/^git clone failed: .*hasDotgit: contains '\.git'/s);
  });

  it("leaves submodules out unless asked, and never follows one to a local path", async () => {
    const without = await create("no submodules", { url: `${server.url}/withsub.git` });
    await waitForStatus(t.api, without.id, "running");
    expect((await execIn(t.instance, without.id, ["ls", "-A", "sub"])).out).toBe("");
    const asked = await create("submodules", { url: `${server.url}/withsub.git`, submodules: true });
    expect((await waitForError(t, asked.id)).detail).toMatch(
      /^git clone failed: .*transport 'file' not allowed/s,
    );
  });

  it("refuses plain http to an address the operator did not open, before making anything", async () => {
    const before = (await t.api.workspace.list.query()).length;
    const refused = await create("elsewhere", { url: "http://192.0.2.77/r.git" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect((refused as TRPCClientError<never>).message).toMatch(
      /plain http is allowed only to an address opened/,
    );
    expect((await t.api.workspace.list.query()).length).toBe(before);
  });
});
