import { describe, expect, it } from "vitest";
import { exitReason, serverCommand } from "./server-command";

const pylsp = {
  language: "python",
  command: ["pylsp", "-v"],
  extensions: ["py"],
  install: "pip install python-lsp-server",
};

describe("serverCommand", () => {
  it("runs the server through a shell that exits 127 when the program is missing", () => {
    expect(serverCommand(pylsp)).toEqual([
      "sh",
      "-c",
      'command -v "$1" >/dev/null 2>&1 || exit 127; exec "$@"',
      "lsp",
      "pylsp",
      "-v",
    ]);
  });
});

describe("exitReason", () => {
  it("says how to install a missing server, or how a running one ended", () => {
    expect(exitReason(pylsp, 127, "")).toBe("pylsp not installed, run: pip install python-lsp-server");
    expect(exitReason(pylsp, 1, "Traceback\nImportError: no module\n")).toBe(
      "pylsp exited (1): ImportError: no module",
    );
    expect(exitReason(pylsp, null, "")).toBe("pylsp exited (killed)");
  });
});
