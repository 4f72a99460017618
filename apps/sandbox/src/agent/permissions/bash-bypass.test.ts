import { describe, expect, it } from "vitest";
import { decide, grantsFor } from "./check";
import { DEFAULT_RULES } from "./defaults";
import { type Rule, type RuleConfig, rulesFromConfig } from "./rules";

const rules = (config: RuleConfig, ...granted: string[]): Rule[] => [
  ...rulesFromConfig(DEFAULT_RULES, "build"),
  ...rulesFromConfig(config, "build"),
  ...grantsFor("bash", granted),
];
const bash = (command: string) => ({ permission: "bash", patterns: [command], title: command });

/** Every command asks unless a rule allows it; the person said "always" to `cat`. */
const askingWithCat = rules({ "*": { bash: "ask" } }, "cat *");
/** Everything runs but `rm`, which is refused; `cat` is allowed too. */
const denyingRm = rules({ "*": { bash: { "*": "allow", "rm *": "deny" } } }, "cat *");

/**
 * Lines that hide `rm -rf ~`, or something that could be anything, behind an allowed `cat`.
 * `ifRmRefused`: where everything but `rm` is allowed, a line whose `rm` is found is refused, and
 * one that cannot be judged asks (a line that sets PATH for `cat` is allowed there, as it should).
 */
const HIDDEN: { line: string; ifRmRefused?: "deny" | "ask" }[] = [
  { line: "cat <(rm -rf ~)", ifRmRefused: "deny" },
  { line: "cat $(rm -rf ~)", ifRmRefused: "deny" },
  { line: "cat `rm -rf ~`", ifRmRefused: "deny" },
  { line: "cat >(rm -rf ~)", ifRmRefused: "deny" },
  { line: 'eval "rm -rf ~"', ifRmRefused: "deny" },
  { line: "bash -c 'rm -rf ~'", ifRmRefused: "deny" },
  { line: "sh -ec 'cat a; rm -rf ~'", ifRmRefused: "deny" },
  { line: 'cat <<< "$(rm -rf ~)"', ifRmRefused: "deny" },
  { line: "cat <<EOF\n$(rm -rf ~)\nEOF", ifRmRefused: "deny" },
  { line: "(rm -rf ~)", ifRmRefused: "deny" },
  { line: "{ rm -rf ~; }", ifRmRefused: "deny" },
  { line: "f() { rm -rf ~; }; f", ifRmRefused: "deny" },
  { line: "x=$(rm -rf ~) cat", ifRmRefused: "deny" },
  { line: "X=1 rm -rf ~", ifRmRefused: "deny" },
  { line: "cat 'a' ; rm -rf ~", ifRmRefused: "deny" },
  { line: "cat a | xargs rm -rf", ifRmRefused: "deny" },
  { line: "env X=1 rm -rf ~", ifRmRefused: "deny" },
  { line: "exec rm -rf ~", ifRmRefused: "deny" },
  { line: "command rm -rf ~", ifRmRefused: "deny" },
  { line: "timeout 5 nice -n 10 rm -rf ~", ifRmRefused: "deny" },
  { line: "find . -name x -exec rm -rf {} \\;", ifRmRefused: "deny" },
  { line: "trap 'rm -rf ~' EXIT; cat a", ifRmRefused: "deny" },
  { line: "\\rm -rf ~", ifRmRefused: "deny" },
  { line: '"r"m -rf ~', ifRmRefused: "deny" },
  { line: "$X", ifRmRefused: "ask" },
  { line: '"$(cat a)" -rf ~', ifRmRefused: "ask" },
  { line: "r?m -rf ~", ifRmRefused: "ask" },
  { line: "{rm,-rf,~}", ifRmRefused: "ask" },
  { line: "eval $X", ifRmRefused: "ask" },
  { line: 'bash -c "$X"', ifRmRefused: "ask" },
  { line: "env -S 'rm -rf ~'", ifRmRefused: "ask" },
  { line: "cat a; if then rm -rf ~", ifRmRefused: "ask" },
  { line: 'cat "a', ifRmRefused: "ask" },
  { line: "PATH=/tmp/evil cat a" },
  { line: "PATH=/tmp/evil; cat a" },
  { line: "for PATH in /tmp/evil; do cat a; done", ifRmRefused: "ask" },
  { line: "cat $((a))", ifRmRefused: "ask" },
  { line: "cat a > ~/.profile", ifRmRefused: "ask" },
  { line: "cat a >> /etc/profile.d/x.sh", ifRmRefused: "ask" },
  { line: "cd ~ && cat a > .bashrc", ifRmRefused: "ask" },
  { line: "cat a > /dev/tcp/127.0.0.1/9", ifRmRefused: "ask" },
  { line: 'cat a > "$OUT"', ifRmRefused: "ask" },
];

describe("an always-allow grant never lets a nested command through", () => {
  it.each(HIDDEN)("$line asks, or is refused for its rm", async ({ line, ifRmRefused }) => {
    const asked = await decide(askingWithCat, bash(line));
    expect(asked.action).not.toBe("allow");
    if (ifRmRefused) expect((await decide(denyingRm, bash(line))).action).toBe(ifRmRefused);
  });
});

describe("bash lines that an allowed program covers", () => {
  it("run without asking", async () => {
    const allowed = rules({ "*": { bash: "ask" } }, "cat *", "grep *", "git *", "echo *", "command *");
    for (const line of [
      "git status && git diff",
      "cat a.txt | grep -n x > found.txt 2>&1",
      "cat a > /dev/null; cat b >> /tmp/log",
      'echo $HOME "$(git rev-parse HEAD)"',
      "command -v rm",
      "cat <<'EOF'\n$(rm -rf ~)\nEOF",
    ]) {
      expect((await decide(allowed, bash(line))).action, line).toBe("allow");
    }
  });

  it("keep the variables set for a command in what an always reply allows", async () => {
    const d = await decide(rules({ "*": { bash: "ask" } }, "npm test *"), bash("CI=1 npm test"));
    expect(d).toEqual({ action: "ask", always: ["CI=1 npm test *"] });
  });

  it("offer no always pattern for a part that cannot be judged", async () => {
    const d = await decide(askingWithCat, bash("cat a; $X"));
    expect(d).toEqual({ action: "ask", always: [] });
  });

  it("ask about a line nested too deeply to judge, rather than fail", async () => {
    const deep = `${"(".repeat(5000)}rm -rf ~${")".repeat(5000)}`;
    expect((await decide(askingWithCat, bash(deep))).action).toBe("ask");
    expect((await decide(denyingRm, bash(deep))).action).toBe("ask");
  });

  it("never offer an always pattern whose program holds a wildcard", async () => {
    const d = await decide(askingWithCat, bash("'c*' a"));
    expect(d).toEqual({ action: "ask", always: [] });
  });

  it("follow the rules when they cover every command", async () => {
    const everything = rules({});
    for (const line of ["$X", "cat <(rm -rf ~)"]) {
      expect((await decide(everything, bash(line))).action, line).toBe("allow");
    }
    const plan = rulesFromConfig(DEFAULT_RULES, "plan");
    expect((await decide(plan, bash("$X"))).action).toBe("deny");
  });
});

describe("a line that is not valid shell", () => {
  const allowingAll = rules({ "*": { bash: "allow" } });
  const denyingAll = rules({ "*": { bash: "deny" } });
  it.each([
    "cat a; if then rm -rf ~",
    'cat "a',
    "echo $((",
    `${"(".repeat(300)}true${")".repeat(300)}`,
  ])("%s asks even where every command is allowed, and stays refused where none is", async (line) => {
    expect((await decide(allowingAll, bash(line))).action).toBe("ask");
    expect((await decide(denyingAll, bash(line))).action).toBe("deny");
  });
  it("does not make a valid line ask where every command is allowed", async () => {
    expect((await decide(allowingAll, bash("$X; cat a | wc -l"))).action).toBe("allow");
  });
});
