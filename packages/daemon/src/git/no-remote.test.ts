import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestDaemon, type TestDaemon } from "../testing/harness";

let d: TestDaemon;
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: d.root,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
  }).toString();
const failure = (call: Promise<unknown>) =>
  call.then(
    () => "succeeded",
    (error: Error) => error.message,
  );

beforeEach(async () => {
  d = await startTestDaemon();
  git("init", "--quiet", "--initial-branch=main");
  writeFileSync(path.join(d.root, "a.txt"), "a\n");
  await d.request("git.stage", { paths: ["a.txt"] });
  await d.request("git.commit", { message: "first", author: { name: "Ada", email: "ada@example.test" } });
});
afterEach(async () => {
  await d.stop();
});

describe("fetch, pull and push with nothing to talk to", () => {
  it("say in a sentence that the repository has no remote, also for a fetch git would quietly skip", async () => {
    const call = (method: "git.fetch" | "git.pull" | "git.push", setUpstream = false) =>
      failure(d.request(method, { callId: "c1", setUpstream }));
    expect(await call("git.fetch")).toBe(
      "This repository has no remote to fetch from: add one in a terminal (git remote add origin <url>), then fetch again.",
    );
    expect(await call("git.pull")).toMatch(/^This repository has no remote to pull from/);
    expect(await call("git.push")).toMatch(/^This repository has no remote to push to/);
    // The panel's Push on a branch without upstream names origin.
    expect(await call("git.push", true)).toMatch(/^This repository has no remote to push to/);
  });

  it("name a remote that does not exist, and a branch without an upstream to pull from", async () => {
    git("remote", "add", "upstream", path.join(d.root, "nowhere.git"));
    expect(await failure(d.request("git.push", { callId: "c1", setUpstream: true }))).toBe(
      "This repository has no remote named origin to push to (it has upstream).",
    );
    expect(await failure(d.request("git.pull", { callId: "c1", setUpstream: false }))).toBe(
      "This branch has no upstream to pull from: push it first (Push sets its upstream), or pull a branch by name.",
    );
  });
});
