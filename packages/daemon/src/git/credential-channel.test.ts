import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { DaemonRequestParams } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { AskCredential } from "./credential-channel";
import { runGit } from "./run-git";

describe("git's credential helper in the daemon", () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  function setup(answer: Awaited<ReturnType<AskCredential>>) {
    const root = mkdtempSync(path.join(tmpdir(), "coder-cred-"));
    roots.push(root);
    const asked: DaemonRequestParams<"credential.get">[] = [];
    const ask: AskCredential = async (request) => {
      asked.push(request);
      return answer;
    };
    // `git credential fill` asks the helpers exactly as git-remote-https does before a push.
    const fill = (input: string, requestId: string | null = "call-1") =>
      runGit(["credential", "fill"], { root, input, okCodes: [0, 128], credentials: { requestId, ask } });
    return { asked, fill, root };
  }

  it("gives git the login the service answers, asked with the call's id and git's protocol and host", async () => {
    const { asked, fill } = setup({ username: "alice", password: "s3cret" });
    const run = await fill("protocol=https\nhost=example.test:8443\npath=org/repo.git\n\n");
    expect(run.stdout).toContain("username=alice\npassword=s3cret\n");
    expect(asked).toEqual([{ requestId: "call-1", protocol: "https", host: "example.test:8443" }]);
  });

  it("gives git nothing when the service gives nothing, and git then fails with its own message", async () => {
    const { fill } = setup(null);
    const run = await fill("protocol=https\nhost=example.test\n\n");
    expect(run.code).toBe(128);
    expect(run.stdout).not.toContain("password=");
    expect(run.stderr).toMatch(/could not read Username|terminal prompts disabled/);
  });

  it("answers one call's git only for the first host it asks about, whoever else holds the descriptor", async () => {
    const { asked, root } = setup({ username: "alice", password: "s3cret" });
    const ask: AskCredential = async (request) => {
      asked.push(request);
      return { username: "alice", password: "s3cret" };
    };
    // Two helpers in one git process tree: git's own for the remote, then another for a second host.
    const script = [
      "printf 'protocol=https\\nhost=example.test\\n\\n' | git credential fill",
      "printf 'protocol=https\\nhost=github.com\\n\\n' | git credential fill",
      "printf 'protocol=https\\nhost=example.test\\n\\n' | git credential fill",
    ].join("; echo ==; ");
    const run = await runGit(["-c", `alias.both=!${script}`, "both"], {
      root,
      okCodes: [0, 128],
      credentials: { requestId: "call-1", ask },
    });
    const [first, second, third] = run.stdout.split("==\n");
    expect(first).toContain("password=s3cret");
    expect(second ?? "").not.toContain("password=");
    expect(third).toContain("password=s3cret");
    expect(asked.map((a) => a.host)).toEqual(["example.test", "example.test"]);
  });

  it("never lets a login with a line break add an attribute to git's answer", async () => {
    const { fill } = setup({ username: "alice", password: "x\nurl=https://attacker.test/" });
    const run = await fill("protocol=https\nhost=example.test\n\n");
    expect(run.stdout).not.toContain("attacker.test");
    expect(run.stdout).not.toContain("password=");
  });

  it("keeps the login back when the repository's configuration would let someone in the middle read it", async () => {
    const { fill, root } = setup({ username: "alice", password: "s3cret" });
    await runGit(["init", "--quiet"], { root });
    const settings = [
      ["http.https://example.test.sslVerify", "false"],
      ["http.sslVerify", "no"],
      ["http.sslCAInfo", `${root}/attacker-ca.pem`],
    ];
    for (const [key, value] of settings) {
      await runGit(["config", key as string, value as string], { root });
      const run = await fill("protocol=https\nhost=example.test\n\n");
      expect(run.stdout, key).not.toContain("s3cret");
      await runGit(["config", "--unset", key as string], { root });
    }
    await runGit(["config", "http.proxy", "http://10.9.9.9:3128"], { root });
    expect((await fill("protocol=http\nhost=10.1.2.3:8080\n\n")).stdout).not.toContain("s3cret");
    // Through a proxy, https stays verified end to end.
    expect((await fill("protocol=https\nhost=example.test\n\n")).stdout).toContain("password=s3cret");
  });

  it("asks nothing of a repository's own helpers or askpass", async () => {
    const { asked, fill, root } = setup({ username: "alice", password: "s3cret" });
    await runGit(["init", "--quiet"], { root });
    await runGit(["config", "credential.helper", `!touch ${root}/helper-ran; echo password=evil`], { root });
    await runGit(["config", "core.askPass", `${root}/askpass`], { root });
    const run = await fill("protocol=https\nhost=example.test\n\n");
    expect(run.stdout).toContain("password=s3cret");
    expect(run.stdout).not.toContain("evil");
    expect(existsSync(path.join(root, "helper-ran"))).toBe(false);
    expect(asked).toHaveLength(1);
  });
});
