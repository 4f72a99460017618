import { describe, expect, it } from "vitest";
import { decide, grantsFor } from "./check";
import { DEFAULT_RULES } from "./defaults";
import { type Rule, type RuleConfig, rulesFromConfig } from "./rules";

const rules = (config: RuleConfig = {}): Rule[] => [
  ...rulesFromConfig(DEFAULT_RULES, "build"),
  ...rulesFromConfig(config, "build"),
];
const bash = (command: string) => ({ permission: "bash", patterns: [command], title: command });

describe("the agent's git push", () => {
  it("asks every time even where bash is allowed, however the push is written", async () => {
    for (const line of [
      "git push",
      "git push origin main",
      "git -C /workspace push --force",
      "/usr/bin/git push",
      "cd /workspace && git push -u origin feature",
      "env GIT_TRACE=1 git push",
      "GIT_TRACE=1 git push",
      "git status; git push",
      "echo $(git push)",
      "bash -c 'git push'",
      "git -c alias.p=push p",
      "git p",
      "git send-pack https://example.test/repo.git main",
      "git rebase -x 'git push' main",
      "git submodule foreach 'git push'",
      "printf 'protocol=https\\nhost=example.test\\n' | git credential fill",
    ]) {
      const decision = await decide(rules(), bash(line));
      expect(decision.action, line).toBe("ask");
      expect(decision.always, line).toEqual([]);
    }
  });

  it("cannot be turned into always: neither by a grant nor by the configuration", async () => {
    const granted = [
      ...rules({ "*": { bash: { "git *": "allow", "git push*": "allow" } } }),
      ...grantsFor("bash", ["git push *", "*"]),
    ];
    expect((await decide(granted, bash("git push origin main"))).action).toBe("ask");
    expect((await decide(granted, bash("git status"))).action).toBe("allow");
  });

  it("stays refused where the rules refuse it, and leaves git's other commands to the rules", async () => {
    expect((await decide(rules({ "*": { bash: { "git push*": "deny" } } }), bash("git push"))).action).toBe(
      "deny",
    );
    for (const line of [
      "git status",
      "git commit -m x",
      "git log --oneline",
      "git fetch",
      "git -C sub diff",
    ]) {
      expect((await decide(rules(), bash(line))).action, line).toBe("allow");
    }
  });
});
