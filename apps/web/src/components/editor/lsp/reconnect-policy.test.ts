import { AccessCloseCode, LspCloseCode } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { afterClose } from "./reconnect-policy";

describe("afterClose", () => {
  it("reconnects after a crash with pauses that double up to a ceiling", () => {
    const pauses = [1, 2, 3, 4, 5, 6, 7].map(
      (attempt) => afterClose(LspCloseCode.ServerError, "pylsp exited (1): boom", attempt).retryInMs,
    );
    expect(pauses).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(afterClose(LspCloseCode.ServerError, "pylsp exited (1)", 1).state).toBe("reconnecting");
  });

  it("reconnects when the connection drops, as when the service restarts", () => {
    expect(afterClose(1006, "", 1)).toEqual({ state: "reconnecting", retryInMs: 1000 });
    expect(afterClose(LspCloseCode.TooBig, "message larger than 4 MB", 2).retryInMs).toBe(2000);
  });

  it("waits for the person when the server is not installed", () => {
    expect(
      afterClose(LspCloseCode.ServerError, "pylsp not installed, run: pip install python-lsp-server", 1),
    ).toEqual({ state: "missing", retryInMs: null });
  });

  it("stops and says why when the login ended", () => {
    expect(afterClose(AccessCloseCode.LoggedOut, "", 1)).toEqual({
      state: "revoked",
      retryInMs: null,
      message: "You were logged out.",
    });
  });

  it("stops when the service refuses the connection, and waits for a workspace that is not running", () => {
    expect(afterClose(AccessCloseCode.Forbidden, "", 1).retryInMs).toBeNull();
    expect(afterClose(AccessCloseCode.NoWorkspace, "", 1).state).toBe("revoked");
    expect(afterClose(AccessCloseCode.NotRunning, "", 1)).toEqual({
      state: "reconnecting",
      retryInMs: 1000,
      message: "The workspace is not running.",
    });
  });

  it("gives up on a language the service has no server for", () => {
    expect(afterClose(LspCloseCode.UnknownLanguage, 'no language server for "cobol"', 1)).toEqual({
      state: "unavailable",
      retryInMs: null,
    });
  });
});
