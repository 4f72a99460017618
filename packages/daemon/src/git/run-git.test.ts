import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { DaemonErrorCode } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runGit } from "./run-git";

let root: string;
let marker: string;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: root,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  }).toString();

beforeEach(() => {
  const base = mkdtempSync(path.join(tmpdir(), "coder-run-git-"));
  root = path.join(base, "workspace");
  mkdirSync(root);
  marker = path.join(base, "ran");
  git("init", "--quiet", "--initial-branch=main");
});
afterEach(() => rmSync(path.dirname(root), { recursive: true, force: true }));

/** A program that leaves the marker file behind, as a hostile repository would name it. */
const leaveMarker = () => `touch ${marker}; cat`;

describe("runGit", () => {
  it("never runs a repository's hooks, fsmonitor, filters or diff drivers", async () => {
    mkdirSync(path.join(root, ".git/hooks"), { recursive: true });
    writeFileSync(path.join(root, ".git/hooks/pre-commit"), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    git("config", "core.fsmonitor", leaveMarker());
    git("config", "filter.evil.clean", leaveMarker());
    git("config", "filter.evil.smudge", leaveMarker());
    git("config", "filter.evil.required", "true");
    git("config", "diff.evil.command", leaveMarker());
    git("config", "diff.evil.textconv", leaveMarker());
    git("config", "diff.external", leaveMarker());
    git("config", "log.showSignature", "true");
    git("config", "gpg.program", leaveMarker());
    writeFileSync(path.join(root, ".gitattributes"), "* filter=evil diff=evil\n");
    writeFileSync(path.join(root, "a.txt"), "one\n");
    const options = { root, config: ["-c", "user.name=A", "-c", "user.email=a@example.invalid"] };
    await runGit(["add", "-A"], options);
    await runGit(["commit", "--no-verify", "-m", "one"], options);
    writeFileSync(path.join(root, "a.txt"), "two\n");
    await runGit(["status", "--porcelain=v2", "-z"], options);
    await runGit(["diff", "--no-ext-diff", "--no-textconv"], options);
    // Without the flags git refuses the emptied external diff instead of running it.
    await expect(runGit(["diff"], options)).rejects.toMatchObject({ code: DaemonErrorCode.Git });
    await runGit(["log", "-1"], options);
    expect(existsSync(marker)).toBe(false);
  });

  it("switches off a filter the repository's config gains between two calls", async () => {
    await runGit(["status"], { root });
    git("config", "filter.late.clean", leaveMarker());
    writeFileSync(path.join(root, ".gitattributes"), "* filter=late\n");
    writeFileSync(path.join(root, "b.txt"), "b\n");
    await runGit(["add", "-A"], { root });
    expect(existsSync(marker)).toBe(false);
  });

  it("answers git's own message when git refuses", async () => {
    const failure = await runGit(["commit", "-m", "nothing"], { root }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: DaemonErrorCode.Git });
    expect((failure as Error).message).toMatch(/nothing to commit|Author identity unknown/);
  });

  it("cuts long output at the bound and says so", async () => {
    writeFileSync(path.join(root, "big.txt"), "x".repeat(10_000));
    const run = await runGit(["hash-object", "--stdin"], { root, input: "abc" });
    expect(run.truncated).toBe(false);
    const cut = await runGit(["show", ":big.txt"], { root, maxOutputBytes: 100, okCodes: [0, 128] });
    expect(cut.stdout.length).toBeLessThanOrEqual(100);
    git("add", "big.txt");
    const shown = await runGit(["show", ":big.txt"], { root, maxOutputBytes: 100 });
    expect(shown).toMatchObject({ truncated: true, stdout: "x".repeat(100) });
  });

  it("stops git at its deadline when a remote never answers", async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const failure = await runGit(["ls-remote", `http://127.0.0.1:${port}/x.git`], {
        root,
        deadlineMs: 300,
      }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: DaemonErrorCode.Git });
      expect((failure as Error).message).toMatch(/did not finish within/);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
    }
  });

  it("never finds a repository above the workspace", async () => {
    const inner = path.join(root, "inner");
    mkdirSync(inner);
    const failure = await runGit(["status"], { root: inner }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: DaemonErrorCode.Git });
    expect((failure as Error).message).toMatch(/not a git repository/);
  });
});
