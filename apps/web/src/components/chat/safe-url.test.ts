import { describe, expect, it } from "vitest";
import { safeUrl } from "./safe-url";

describe("links in the agent's answers", () => {
  it("keeps web links", () => {
    expect(safeUrl("https://example.com/a?b=1")).toBe("https://example.com/a?b=1");
    expect(safeUrl("http://localhost:3000")).toBe("http://localhost:3000");
  });

  it("drops scripts, data and relative links", () => {
    expect(safeUrl("javascript:alert(1)")).toBe("");
    expect(safeUrl(" JavaScript:alert(1)")).toBe("");
    expect(safeUrl("data:text/html,<script>x</script>")).toBe("");
    expect(safeUrl("/api/trpc/workspace.delete")).toBe("");
    expect(safeUrl("file:///etc/passwd")).toBe("");
  });
});
