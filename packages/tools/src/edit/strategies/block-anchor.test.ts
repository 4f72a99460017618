import { describe, expect, it } from "vitest";
import { replace } from "../replace";

const source = `function handle(request) {
  const value = compute(request.body);
  if (value > options.limit) {
    logger.warn("limit exceeded", { value });
    return respond(413, "too large");
  }
  return respond(200, value);
}
`;

describe("block-anchor strategy", () => {
  it("matches a block whose first and last lines agree when the model misremembered a word inside", () => {
    const old = `  if (value > options.limit) {
    logger.warn("limit was exceeded", { value });
    return respond(413, "too large")
  }`;
    const result = replace(
      source,
      old,
      `  if (value > options.limit) {\n    return respond(413, "too large");\n  }`,
    );
    expect(result).toMatchObject({ ok: true, strategy: "block-anchor" });
    if (result.ok) expect(result.content).not.toContain("logger.warn");
  });

  it("keeps the file's indentation when the model's block was indented differently", () => {
    const old = `if (value > options.limit) {\n  logger.warn("limit exceeded", { value: value });\n  return respond(413, "too large");\n}`;
    const result = replace(source, old, `if (value > options.limit) {\n  return fail();\n}`);
    expect(result).toMatchObject({ ok: true, strategy: "block-anchor" });
    if (result.ok)
      expect(result.content).toContain(`  if (value > options.limit) {\n    return fail();\n  }\n`);
  });

  it("refuses a block whose anchors match but whose middle lines are mostly different", () => {
    const old = `  if (value > options.limit) {
    metrics.increment("rejected");
    throw new TooLargeError(value, options);
  }`;
    expect(replace(source, old, "x")).toMatchObject({ ok: false, code: "not_found" });
  });

  it("refuses anchors that lie much further apart than old_string is long", () => {
    const lines = ["start();", "step(1);", ...Array.from({ length: 10 }, (_, i) => `other(${i});`), "end();"];
    const old = "start();\nstep(2);\nend();";
    expect(replace(`${lines.join("\n")}\n`, old, "x")).toMatchObject({ ok: false, code: "not_found" });
  });
});
