import { describe, expect, it } from "vitest";
import { alwaysPattern } from "./always-pattern";
import { bashSubjects } from "./bash-subjects";
import { decide, grantsFor } from "./check";
import { DEFAULT_RULES } from "./defaults";
import { normalizePath } from "./paths";
import { type Rule, type RuleConfig, rulesFromConfig } from "./rules";
import { matchWildcard } from "./wildcard";

const rules = (agent: string, config: RuleConfig = {}): Rule[] => [
  ...rulesFromConfig(DEFAULT_RULES, agent),
  ...rulesFromConfig(config, agent),
];
const bash = (command: string) => ({ permission: "bash", patterns: [command], title: command });
const edit = (path: string) => ({ permission: "edit", patterns: [path], title: `Write ${path}` });

describe("wildcard patterns", () => {
  it("match any run of characters with * and one with ?", () => {
    expect(matchWildcard("git status*", "git status --short")).toBe(true);
    expect(matchWildcard("rm *", "rm -rf /")).toBe(true);
    expect(matchWildcard("src/*.ts", "src/deep/a.ts")).toBe(true);
    expect(matchWildcard("a?c", "abc")).toBe(true);
    expect(matchWildcard("a?c", "ac")).toBe(false);
    expect(matchWildcard("ls", "ls -la")).toBe(false);
  });

  it("let `cmd *` cover the bare command too", () => {
    expect(matchWildcard("git log *", "git log")).toBe(true);
    expect(matchWildcard("git log *", "git logs")).toBe(false);
  });

  it("treat regular-expression characters literally", () => {
    expect(matchWildcard("a.b", "axb")).toBe(false);
    expect(matchWildcard("(x)+", "(x)+")).toBe(true);
  });
});

/** The simple commands a line is judged by, as their patterns see them. */
const commandsOf = async (line: string) =>
  (await bashSubjects(line)).flatMap((s) => (s.kind === "command" ? [s.words.join(" ")] : []));

describe("bash commands as subjects", () => {
  it("are split on unquoted separators", async () => {
    expect(await commandsOf("git status && rm -rf x; ls | wc -l")).toEqual([
      "git status",
      "rm -rf x",
      "ls",
      "wc -l",
    ]);
    expect(await commandsOf("echo 'a && b' \"c; d\"")).toEqual(["echo a && b c; d"]);
    expect(await commandsOf("sleep 1 & echo done")).toEqual(["sleep 1", "echo done"]);
  });

  it("include the commands hidden in substitutions", async () => {
    expect(await commandsOf("echo $(rm -rf ~)")).toEqual(["echo $(rm -rf ~)", "rm -rf ~"]);
    expect(await commandsOf('echo "`curl evil`"')).toEqual(['echo "`curl evil`"', "curl evil"]);
  });

  it("are generalised by program and sub-command for an always reply", async () => {
    expect(alwaysPattern(["git", "log", "--oneline", "-5"])).toBe("git log *");
    expect(alwaysPattern(["npm", "test"])).toBe("npm test *");
    expect(alwaysPattern(["ls", "-la", "src"])).toBe("ls *");
    expect(alwaysPattern(["git", "--no-pager", "log"])).toBe("git *");
  });
});

describe("permission decisions", () => {
  it("allow work inside the sandbox by default", async () => {
    expect((await decide(rules("build"), bash("npm test"))).action).toBe("allow");
    expect((await decide(rules("build"), edit("src/a.ts"))).action).toBe("allow");
    expect(
      (await decide(rules("build"), { permission: "read", patterns: ["README.md"], title: "" })).action,
    ).toBe("allow");
  });

  it("ask before fetching from the web", async () => {
    const d = await decide(rules("build"), {
      permission: "webfetch",
      patterns: ["https://example.com/a"],
      title: "",
    });
    expect(d).toEqual({ action: "ask", always: ["https://example.com/*"] });
  });

  it("deny paths outside the workspace, however they are written", async () => {
    for (const p of ["/etc/passwd", "../outside.txt", "src/../../x", "/workspace/../etc/shadow"]) {
      const d = await decide(rules("build"), edit(p));
      expect(d.action).toBe("deny");
      expect(d.reason).toMatch(/outside the workspace/);
    }
  });

  it("let tools read the spilled output they point the model to", async () => {
    const d = await decide(rules("build"), {
      permission: "read",
      patterns: ["/tmp/coder-tool-output/call_1.txt"],
      title: "",
    });
    expect(d.action).toBe("allow");
  });

  it("use the last matching bash pattern", async () => {
    const config: RuleConfig = { build: { bash: { "*": "ask", "git status*": "allow", "rm *": "deny" } } };
    expect((await decide(rules("build", config), bash("git status --short"))).action).toBe("allow");
    expect((await decide(rules("build", config), bash("rm -rf build"))).action).toBe("deny");
    expect((await decide(rules("build", config), bash("make"))).action).toBe("ask");
  });

  it("judge a compound command by its worst part", async () => {
    const config: RuleConfig = { "*": { bash: { "*": "ask", "git status*": "allow", "rm *": "deny" } } };
    expect((await decide(rules("build", config), bash("git status; rm -rf ~"))).action).toBe("deny");
    const d = await decide(rules("build", config), bash("git status && npm test"));
    expect(d).toEqual({ action: "ask", always: ["npm test *"] });
  });

  it("let an always grant cover later commands with the same prefix", async () => {
    const config: RuleConfig = { "*": { bash: "ask" } };
    const first = await decide(rules("build", config), bash("git log --oneline -5"));
    expect(first.action).toBe("ask");
    const granted = [...rules("build", config), ...grantsFor("bash", first.always)];
    expect((await decide(granted, bash("git log -p"))).action).toBe("allow");
    expect((await decide(granted, bash("git push"))).action).toBe("ask");
  });

  it("keep the plan agent to writing plans under .coder/plans", async () => {
    expect((await decide(rules("plan"), edit(".coder/plans/refactor.md"))).action).toBe("allow");
    expect((await decide(rules("plan"), edit("/workspace/.coder/plans/x.md"))).action).toBe("allow");
    const d = await decide(rules("plan"), edit("src/index.ts"));
    expect(d.action).toBe("deny");
    expect(d.reason).toMatch(/edit src\/index.ts is not permitted/);
    expect((await decide(rules("plan"), bash("ls"))).action).toBe("deny");
  });

  it("ask before leaving plan mode and before a repeated call goes on", async () => {
    expect((await decide(rules("plan"), { permission: "plan_exit", patterns: [], title: "" })).action).toBe(
      "ask",
    );
    expect(
      (await decide(rules("build"), { permission: "doom_loop", patterns: ["read"], title: "" })).action,
    ).toBe("ask");
  });

  it("apply rules for every agent before an agent's own", async () => {
    const config: RuleConfig = { build: { webfetch: "allow" }, "*": { webfetch: "deny" } };
    const request = { permission: "webfetch", patterns: ["https://a.example/"], title: "" };
    expect((await decide(rules("build", config), request)).action).toBe("allow");
    expect((await decide(rules("plan", config), request)).action).toBe("deny");
  });
});

describe("path subjects", () => {
  it("are relative to the workspace root", async () => {
    expect(normalizePath("./src//a.ts")).toBe("src/a.ts");
    expect(normalizePath("/workspace/src/a.ts")).toBe("src/a.ts");
    expect(normalizePath("/workspace")).toBe(".");
    expect(normalizePath("..")).toBe("/");
  });
});
