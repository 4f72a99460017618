import { describe, expect, it } from "vitest";
import { replace } from "../replace";

const source = `const config = {
  name:    "app",
  port:\t8080,
};
const url = "http://" + host + ":" + port;
`;

describe("whitespace-normalized strategy", () => {
  it("matches lines whose aligned spacing the model collapsed", () => {
    const result = replace(source, 'name: "app",\nport: 8080,', 'name: "api",\nport: 9090,');
    expect(result).toMatchObject({ ok: true, strategy: "whitespace-normalized" });
    if (result.ok) expect(result.content).toContain('  name: "api",\n  port: 9090,\n');
  });

  it("matches a fragment of a line written with different spacing, without touching the rest", () => {
    const result = replace(source, '":"  +  port', '":" + String(port)');
    expect(result).toMatchObject({ ok: true, strategy: "whitespace-normalized" });
    if (result.ok) expect(result.content).toContain('const url = "http://" + host + ":" + String(port);');
  });

  it("does not match when a word differs", () => {
    expect(replace(source, 'name: "apps",\nport: 8080,', "x")).toMatchObject({
      ok: false,
      code: "not_found",
    });
  });
});
