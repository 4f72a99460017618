import { describe, expect, it } from "vitest";
import { BUILTIN_TOOLS, builtinFacts } from "../tools/builtin";
import { filesReached } from "./facts";

describe("tool facts", () => {
  it("say which files a call reaches, from the arguments the model sent", () => {
    expect(
      filesReached(builtinFacts("edit").changes, { path: "src/a.ts", old_string: "a", new_string: "b" }),
    ).toEqual(["src/a.ts"]);
    expect(filesReached(builtinFacts("read").changes, { path: "src/a.ts" })).toEqual([]);
    expect(filesReached(builtinFacts("bash").changes, { command: "make" })).toBe("any");
    const patch = [
      "*** Begin Patch",
      "*** Update File: a.txt",
      "*** Move to: b.txt",
      "@@",
      "-x",
      "+y",
      "*** Add File: c.txt",
      "+new",
      "*** End Patch",
    ].join("\n");
    expect(filesReached(builtinFacts("apply_patch").changes, { patch })).toEqual(["a.txt", "b.txt", "c.txt"]);
  });

  it("assume a tool they do not know, or arguments that break its reach, may touch anything", () => {
    expect(builtinFacts("someone_elses_tool")).toMatchObject({ reads: "any", changes: "any" });
    expect(filesReached(builtinFacts("apply_patch").changes, { patch: 42 })).toBe("any");
  });

  it("run in the service exactly the tools that need the runtime, a person or the web", () => {
    const inService = BUILTIN_TOOLS.filter((tool) => tool.facts.runsIn === "service").map((tool) => tool.id);
    expect(inService.sort()).toEqual(
      [
        "batch",
        "plan_exit",
        "preview",
        "question",
        "task",
        "todoread",
        "todowrite",
        "webfetch",
        "websearch",
      ].sort(),
    );
  });
});
