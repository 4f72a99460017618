import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runGit } from "./run-git";
import { parseStatus } from "./status-parse";

let root: string;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: root,
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.invalid",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.invalid",
    },
  }).toString();
const write = (name: string, content: string) => writeFileSync(path.join(root, name), content);
const status = async () =>
  parseStatus(
    (await runGit(["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all"], { root })).stdout,
  );

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "coder-status-"));
  git("init", "--quiet", "--initial-branch=main");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("parseStatus", () => {
  it("reads the branch of a repository without commits", async () => {
    expect(await status()).toMatchObject({ branch: "main", head: null, upstream: null, ahead: 0, files: [] });
  });

  it("keeps names with spaces, newlines and unicode exactly", async () => {
    const names = ["with space.txt", "new\nline.txt", "ünïcødé 文件.txt", "  lead.txt", "tab\there.txt"];
    for (const name of names) write(name, "x\n");
    git("add", "--", names[0] as string, names[1] as string);
    const { files } = await status();
    expect(files).toEqual(
      expect.arrayContaining([
        { path: "with space.txt", kind: "changed", index: "A", worktree: "." },
        { path: "new\nline.txt", kind: "changed", index: "A", worktree: "." },
        { path: "ünïcødé 文件.txt", kind: "untracked", index: "?", worktree: "?" },
        { path: "  lead.txt", kind: "untracked", index: "?", worktree: "?" },
        { path: "tab\there.txt", kind: "untracked", index: "?", worktree: "?" },
      ]),
    );
    expect(files).toHaveLength(5);
  });

  it("reads a rename with its source, both names odd", async () => {
    write("old name\n.txt", "same content\n".repeat(20));
    git("add", "-A");
    git("commit", "--quiet", "-m", "one");
    git("mv", "old name\n.txt", "new näme.txt");
    write("new näme.txt", `${"same content\n".repeat(20)}more\n`);
    const result = await status();
    expect(result.head).toMatch(/^[0-9a-f]{40}$/);
    expect(result.files).toEqual([
      { path: "new näme.txt", origPath: "old name\n.txt", kind: "renamed", index: "R", worktree: "M" },
    ]);
  });

  it("reads a conflict, and ahead and behind of an upstream", async () => {
    write("f.txt", "base\n");
    git("add", "-A");
    git("commit", "--quiet", "-m", "base");
    git("checkout", "--quiet", "-b", "other");
    write("f.txt", "theirs\n");
    git("commit", "--quiet", "-am", "theirs");
    git("checkout", "--quiet", "main");
    write("f.txt", "ours\n");
    git("commit", "--quiet", "-am", "ours");
    git("branch", "--quiet", "--set-upstream-to=other");
    try {
      git("merge", "--quiet", "other");
    } catch {
      // the conflict is the point
    }
    const result = await status();
    expect(result).toMatchObject({ branch: "main", upstream: "other", ahead: 1, behind: 1 });
    expect(result.files).toEqual([{ path: "f.txt", kind: "unmerged", index: "U", worktree: "U" }]);
  });

  it("drops the partial last record of a cut output and says so", () => {
    const output = "# branch.oid (initial)\0# branch.head main\0? a.txt\0? b.t";
    expect(parseStatus(output, true)).toMatchObject({
      truncated: true,
      files: [{ path: "a.txt", kind: "untracked" }],
    });
  });

  it("reads a detached HEAD", () => {
    const oid = "a".repeat(40);
    const result = parseStatus(`# branch.oid ${oid}\0# branch.head (detached)\0`);
    expect(result).toMatchObject({ branch: null, head: oid, truncated: false });
  });
});
