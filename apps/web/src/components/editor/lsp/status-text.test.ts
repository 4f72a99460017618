import { describe, expect, it } from "vitest";
import { statusText } from "./status-text";

describe("statusText", () => {
  it("tells how to install a missing server", () => {
    expect(
      statusText({ language: "python", state: "missing", detail: "pip install python-lsp-server" }),
    ).toBe("Python: language server not installed — run: pip install python-lsp-server");
  });

  it("says it is reconnecting, and why the server stopped", () => {
    expect(
      statusText({ language: "bash", state: "reconnecting", detail: "bash-language-server exited (1)" }),
    ).toBe("Bash: language server stopped (bash-language-server exited (1)) — reconnecting…");
    expect(statusText({ language: "bash", state: "reconnecting", detail: "" })).toBe(
      "Bash: language server stopped — reconnecting…",
    );
  });

  it("reports starting, ready and unavailable servers", () => {
    expect(statusText({ language: "python", state: "connecting", detail: "" })).toMatch(/starting/);
    expect(statusText({ language: "python", state: "ready", detail: "" })).toMatch(/ready/);
    expect(statusText({ language: "cobol", state: "unavailable", detail: "" })).toMatch(/no language server/);
    expect(statusText({ language: "python", state: "revoked", detail: "You were logged out." })).toBe(
      "Python: language server closed — You were logged out.",
    );
  });
});
