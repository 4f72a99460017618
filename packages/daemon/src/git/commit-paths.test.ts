import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
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
const author = { name: "Ada Lovelace", email: "ada@example.test" };
const trailer = "Co-authored-by: coder agent <agent@coder.invalid>";

beforeEach(async () => {
  d = await startTestDaemon({ watch: false });
  git("init", "--quiet", "--initial-branch=main");
  write("a.txt", "a\n");
  write("mine.txt", "mine\n");
  await d.request("git.stage", { paths: ["a.txt", "mine.txt"] });
  await d.request("git.commit", { message: "first", author });
});
afterEach(async () => {
  await d.stop();
});

describe("committing exactly some paths", () => {
  it("commits a changed and a new file with the trailer, and leaves another staged file staged", async () => {
    write("a.txt", "a changed\n");
    write("new [1].txt", "new\n");
    write("mine.txt", "mine, staged\n");
    await d.request("git.stage", { paths: ["mine.txt"] });
    const done = await d.request("git.commitPaths", {
      paths: ["a.txt", "new [1].txt"],
      message: "the turn",
      author,
      trailers: [trailer],
    });
    expect(done.paths.sort()).toEqual(["a.txt", "new [1].txt"]);
    expect(git("show", "--name-only", "--format=%an <%ae>%n%B", "HEAD")).toBe(
      `Ada Lovelace <ada@example.test>\nthe turn\n\n${trailer}\n\n\na.txt\nnew [1].txt\n`,
    );
    expect(git("status", "--porcelain")).toBe("M  mine.txt\n");
  });

  it("refuses files that no longer differ, and a branch name git would read as another", async () => {
    const same = await d
      .request("git.commitPaths", { paths: ["a.txt"], message: "m", author })
      .catch((e) => e);
    expect(same).toMatchObject({
      code: DaemonErrorCode.Git,
      message: expect.stringMatching(/no longer differ/),
    });
    write("a.txt", "a changed\n");
    git("switch", "--quiet", "--create", "other");
    git("switch", "--quiet", "main");
    const hostile = await d
      .request("git.commitPaths", { paths: ["a.txt"], message: "m", author, branch: "@{-1}" })
      .catch((e) => e);
    expect(hostile).toMatchObject({
      code: DaemonErrorCode.Git,
      message: expect.stringMatching(/not a valid branch/),
    });
    expect(git("branch", "--show-current")).toBe("main\n");
    const made = await d.request("git.commitPaths", {
      paths: ["a.txt"],
      message: "m",
      author,
      branch: "turn/one",
    });
    expect(made.branch).toBe("turn/one");
    expect(git("log", "-1", "--format=%s %D")).toBe("m HEAD -> turn/one\n");
  });

  it("shows a conflicted file's base, ours and theirs", async () => {
    git("switch", "--quiet", "--create", "theirs");
    write("a.txt", "theirs\n");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-am", "theirs");
    git("switch", "--quiet", "main");
    write("a.txt", "ours\n");
    git("-c", "user.name=o", "-c", "user.email=o@o", "commit", "--quiet", "-am", "ours");
    try {
      git("-c", "user.name=o", "-c", "user.email=o@o", "merge", "--quiet", "theirs");
    } catch {
      // the conflict this test wants
    }
    expect(await d.request("git.conflict", { path: "a.txt" })).toEqual({
      path: "a.txt",
      base: "a\n",
      ours: "ours\n",
      theirs: "theirs\n",
      truncated: false,
    });
    const none = await d.request("git.conflict", { path: "mine.txt" }).catch((e) => e);
    expect(none).toMatchObject({ code: DaemonErrorCode.Git, message: "mine.txt has no conflict" });
  });
});
