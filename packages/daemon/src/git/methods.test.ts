import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DaemonErrorCode } from "@coder/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/harness";

let d: TestDaemon;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: d.root,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  }).toString();
const write = (name: string, content: string) => writeFileSync(path.join(d.root, name), content);
const lines = (n: number, change?: Record<number, string>) =>
  `${Array.from({ length: n }, (_, i) => change?.[i] ?? `line ${i}`).join("\n")}\n`;
const author = { name: "Ada Lovelace", email: "ada@example.test" };

beforeEach(async () => {
  d = await startTestDaemon({ watch: true });
  git("init", "--quiet", "--initial-branch=main");
  write("a.txt", lines(40));
  await d.request("git.stage", { paths: ["a.txt"] });
  await d.request("git.commit", { message: "first", author });
});
afterEach(async () => {
  await d.stop();
});

describe("git methods", () => {
  it("stage one hunk of two, commit it as the author, and leave the other unstaged", async () => {
    write("a.txt", lines(40, { 1: "first change", 35: "second change" }));
    const diff = await d.request("git.diff", { path: "a.txt", staged: false });
    const [header, first] = diff.patch.split(/(?=^@@)/m);
    await d.request("git.stage", { paths: ["a.txt"], patch: `${header}${first}` });
    const status = await d.request("git.status", {});
    expect(status.files).toEqual([{ path: "a.txt", kind: "changed", index: "M", worktree: "M" }]);
    const staged = await d.request("git.diff", { path: "a.txt", staged: true });
    expect(staged.patch).toContain("+first change");
    expect(staged.patch).not.toContain("second change");
    const commit = await d.request("git.commit", { message: "the first change", author });
    expect(commit.summary).toBe("the first change");
    const { commits } = await d.request("git.log", { limit: 10 });
    expect(commits.map((c) => c.subject)).toEqual(["the first change", "first"]);
    expect(commits[0]).toMatchObject({
      hash: commit.hash,
      authorName: "Ada Lovelace",
      authorEmail: "ada@example.test",
    });
    const left = await d.request("git.diff", { path: "a.txt", staged: false });
    expect(left.patch).toContain("+second change");
    expect(left.patch).not.toContain("first change");
  });

  it("refuse a patch that touches a file it was not asked to stage", async () => {
    write("a.txt", lines(40, { 1: "change" }));
    write("b.txt", "b\n");
    await d.request("git.stage", { paths: ["b.txt"] });
    await d.request("git.commit", { message: "b", author });
    write("b.txt", "b changed\n");
    const patch = (await d.request("git.diff", { path: "b.txt", staged: false })).patch;
    const error = await d.failure("git.stage", { paths: ["a.txt"], patch });
    expect(error.code).toBe(DaemonErrorCode.PathDenied);
    expect((await d.request("git.status", {})).files.every((f) => f.index === ".")).toBe(true);
  });

  it("unstage a file and discard changes, removing an untracked file", async () => {
    write("a.txt", "changed\n");
    write("new file.txt", "new\n");
    await d.request("git.stage", { paths: ["a.txt"] });
    await d.request("git.unstage", { paths: ["a.txt"] });
    expect((await d.request("git.status", {})).files).toEqual([
      { path: "a.txt", kind: "changed", index: ".", worktree: "M" },
      { path: "new file.txt", kind: "untracked", index: "?", worktree: "?" },
    ]);
    const untracked = await d.request("git.diff", { path: "new file.txt", staged: false });
    expect(untracked.patch).toContain("+new");
    await d.request("git.discard", { paths: ["a.txt", "new file.txt"] });
    expect((await d.request("git.status", {})).files).toEqual([]);
    expect(readFileSync(path.join(d.root, "a.txt"), "utf8")).toBe(lines(40));
  });

  it("create, list and switch branches, and answer git's message for one that does not exist", async () => {
    await d.request("git.checkout", { branch: "topic", create: true });
    const { branches } = await d.request("git.branches", {});
    expect(branches.map((b) => [b.name, b.current])).toEqual([
      ["main", false],
      ["topic", true],
    ]);
    await d.request("git.checkout", { branch: "main" });
    expect((await d.request("git.status", {})).branch).toBe("main");
    const error = await d.failure("git.checkout", { branch: "nowhere" });
    expect(error.code).toBe(DaemonErrorCode.Git);
    expect(error.message).toMatch(/nowhere/);
  });

  it("tell the client when HEAD, the index or a ref changed, whoever changed them", async () => {
    git("branch", "elsewhere");
    await d.until("git.changed", (params) => params.entries.includes("refs/heads/elsewhere"));
  });

  it("answer a folder that is not a repository as such", async () => {
    git("init", "--quiet");
    execFileSync("rm", ["-rf", path.join(d.root, ".git")]);
    expect(await d.request("git.status", {})).toMatchObject({ repository: false, files: [] });
  });
});
