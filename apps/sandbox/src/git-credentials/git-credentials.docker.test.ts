import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitServer, startGitServer } from "../imports/testing/git-server";
import { execIn, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { type LoginTrap, startLoginTrap } from "./testing/login-trap";

const TRAP_TOKEN = "ghp_onlyForExampleTest0123456789abcdef";

describe("git credentials the workspace never holds", () => {
  let server: GitServer;
  let trap: LoginTrap;
  let t: TestService;
  let workspaceId: string;
  let host: string;
  const logLines: string[] = [];

  const inWorkspace = async (...cmd: string[]) => execIn(t.instance, workspaceId, cmd);
  const commit = (...args: string[]) =>
    inWorkspace(
      "git",
      "-c",
      "user.name=Ada",
      "-c",
      "user.email=ada@example.invalid",
      "commit",
      "-q",
      ...args,
    );
  /** A push from the Source Control panel, as its owner: `git.push`. */
  const panelPush = (remote = "origin") => t.api.git.push.mutate({ workspaceId, remote, branch: "main" });
  const serverHead = () =>
    execFileSync("git", [
      "--git-dir",
      path.join(server.root, "private.git"),
      "log",
      "-1",
      "--format=%s",
      "main",
    ])
      .toString()
      .trim();

  beforeAll(async () => {
    server = await startGitServer();
    trap = await startLoginTrap();
    t = await startTestService({}, { CODER_EGRESS_ALLOW: `${server.allow},${trap.allow}` }, (line) =>
      logLines.push(line),
    );
    host = new URL(server.url).host;
    const created = await t.api.workspace.create.mutate({
      name: "pusher",
      egress: true,
      source: { type: "git", url: `${server.url}/private.git`, token: server.token },
    });
    workspaceId = created.id;
    await waitForStatus(t.api, workspaceId, "running", 120_000);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await trap?.close();
    await server?.close();
  });

  it("pushes, fetches and pulls from the panel with the acting person's token for that host; without one or with a wrong one, git says why", async () => {
    await commit("--allow-empty", "-m", "from the workspace");
    await expect(panelPush()).rejects.toThrow(/could not read Username|terminal prompts disabled/);
    await t.api.gitCredential.set.mutate({ host, token: "not-the-token" });
    await expect(panelPush()).rejects.toThrow(/Authentication failed/);
    expect(serverHead()).toBe("second");
    await t.api.gitCredential.set.mutate({ host, token: server.token });
    await panelPush();
    expect(serverHead()).toBe("from the workspace");
    // Fetch and pull go the same way (the repository wants the token to be read too).
    await t.api.git.fetch.mutate({ workspaceId });
    await t.api.git.pull.mutate({ workspaceId });
  });

  it("keeps the token out of the workspace's files, every process's environment and command line during a slow push, the log, the database and every answer", async () => {
    const stored = await t.api.gitCredential.set.mutate({ host, username: "ada", token: server.token });
    await inWorkspace("sh", "-c", "head -c 3000000 /dev/urandom > big.bin && git add big.bin");
    await commit("-m", "a slow one");
    await inWorkspace("git", "remote", "set-url", "origin", `${server.url}/slow/private.git`);
    let settled = false;
    const pushing = panelPush().finally(() => {
      settled = true;
    });
    // Every process's command line and environment, read in the container as its user while git pushes.
    const samples: string[] = [];
    let sawTheUpload = false;
    while (!settled) {
      const { out } = await inWorkspace(
        "sh",
        "-c",
        'for p in /proc/[0-9]*; do echo "== $p"; tr "\\0" " " < $p/cmdline; echo; tr "\\0" "\\n" < $p/environ; done 2>/dev/null',
      );
      samples.push(out);
      if (out.includes("git-remote-http")) sawTheUpload = true;
    }
    const answer = await pushing;
    expect(serverHead()).toBe("a slow one");
    expect(sawTheUpload, "no sample was taken while git pushed").toBe(true);
    for (const sample of samples) expect(sample).not.toContain(server.token);

    const files = await inWorkspace(
      "grep",
      "-rlF",
      "--",
      server.token,
      "/workspace",
      "/tmp",
      "/home/coder",
      "/var/lib/coder",
    );
    expect(files.out, "the token is in a file of the workspace").toBe("");
    expect(logLines.join("\n")).not.toContain(server.token);
    for (const file of readdirSync(t.dataDir)) {
      if (!/\.(db|sqlite)/.test(file)) continue;
      const bytes = readFileSync(path.join(t.dataDir, file));
      expect(bytes.includes(server.token), `${file} holds the token`).toBe(false);
      expect(bytes.includes(Buffer.from(server.token).toString("base64")), `${file} holds it in base64`).toBe(
        false,
      );
    }
    const answers = [
      stored,
      answer,
      await t.api.gitCredential.list.query(),
      await t.api.audit.list.query({}),
    ];
    expect(JSON.stringify(answers)).not.toContain(server.token);
    await inWorkspace("git", "remote", "set-url", "origin", `${server.url}/private.git`);
  });

  it("gives git in a terminal the owner's token only while the owner has bound it to the workspace", async () => {
    await commit("--allow-empty", "-m", "from a terminal");
    const terminalPush = () => inWorkspace("git", "push", "origin", "main");
    expect((await terminalPush()).out).toMatch(/could not read Username/);
    await t.api.gitCredential.bind.mutate({ workspaceId, host });
    const pushed = await terminalPush();
    expect(pushed.code, pushed.out).toBe(0);
    expect(serverHead()).toBe("from a terminal");
    await t.api.gitCredential.unbind.mutate({ workspaceId, host });
    await commit("--allow-empty", "-m", "after the unbinding");
    expect((await terminalPush()).out).toMatch(/could not read Username/);
    expect(serverHead()).toBe("from a terminal");
  });

  it("gives a token for example.test neither to example.test.attacker.test nor to attacker.test/example.test", async () => {
    await t.api.gitCredential.set.mutate({ host: "example.test", token: TRAP_TOKEN });
    // The repository's own configuration sends git through the trap, which answers every host with
    // "log in" (and turns TLS verification off, so that git talks to it at all).
    await inWorkspace("git", "config", "http.proxy", trap.proxyUrl);
    await inWorkspace("git", "config", "http.sslVerify", "false");
    const remotes = {
      lookalike: "https://example.test.attacker.test/repo.git",
      inThePath: "https://attacker.test/example.test/repo.git",
      real: "https://example.test/repo.git",
    };
    for (const [name, url] of Object.entries(remotes)) await inWorkspace("git", "remote", "add", name, url);
    for (const remote of Object.keys(remotes)) {
      await expect(panelPush(remote)).rejects.toThrow(/could not read Username|terminal prompts disabled/);
    }
    const hosts = new Set(trap.requests.map((r) => r.host));
    expect(hosts).toEqual(
      new Set(["example.test.attacker.test:443", "attacker.test:443", "example.test:443"]),
    );
    expect(trap.requests.filter((r) => r.authorization)).toEqual([]);
    const log = logLines.join("\n");
    // Refused by the service for the host; the real host's login kept back by the daemon for the transport.
    expect(log).toMatch(/no login for example\.test\.attacker\.test: the person keeps no token for it/);
    expect(log).toMatch(/no login for attacker\.test: the person keeps no token for it/);
    expect(log).toMatch(
      /kept the login for example\.test from git: the repository's configuration turns TLS verification off/,
    );
    expect(log).not.toContain(TRAP_TOKEN);
    await inWorkspace("git", "config", "--unset", "http.proxy");
    await inWorkspace("git", "config", "--unset", "http.sslVerify");
  });
});
