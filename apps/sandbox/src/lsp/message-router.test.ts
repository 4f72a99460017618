import { describe, expect, it } from "vitest";
import type { Message } from "vscode-jsonrpc";
import { LspMessageRouter } from "./message-router";

const request = (method: string, params: object = {}, id = 7) =>
  ({ jsonrpc: "2.0", id, method, params }) as Message;
const notification = (method: string, params: object = {}) => ({ jsonrpc: "2.0", method, params }) as Message;
const PYLINT_RUNS_PYTHON = {
  pylsp: { plugins: { pylint: { enabled: true, executable: "/usr/bin/python3" } } },
};

describe("where a language-server socket sends each message", () => {
  it("passes a viewer's hover and answers a viewer's rename and unknown requests with a plain refusal", () => {
    const viewer = new LspMessageRouter(true);
    expect(viewer.fromBrowser(request("textDocument/hover"))).toMatchObject({ to: "server" });
    for (const method of ["textDocument/rename", "workspace/executeCommand", "custom/anything"]) {
      expect(viewer.fromBrowser(request(method))).toEqual({
        to: "browser",
        message: {
          jsonrpc: "2.0",
          id: 7,
          error: { code: -32803, message: `read-only: a viewer cannot use ${method}` },
        },
      });
    }
  });

  it("drops a viewer's notifications that are not on the list", () => {
    const viewer = new LspMessageRouter(true);
    expect(viewer.fromBrowser(notification("textDocument/didSave"))).toEqual({ to: "nowhere" });
    expect(viewer.fromBrowser(notification("textDocument/didOpen"))).toMatchObject({ to: "server" });
  });

  it("never passes configuration from a browser, even an owner's", () => {
    const owner = new LspMessageRouter(false);
    expect(
      owner.fromBrowser(notification("workspace/didChangeConfiguration", { settings: PYLINT_RUNS_PYTHON })),
    ).toEqual({
      to: "nowhere",
    });
    const initialize = owner.fromBrowser(
      request("initialize", { capabilities: {}, initializationOptions: PYLINT_RUNS_PYTHON }),
    );
    expect(initialize).toMatchObject({ to: "server" });
    expect(JSON.stringify(initialize)).not.toContain("pylint");
    expect(owner.fromBrowser(request("textDocument/rename"))).toMatchObject({ to: "server" });
  });

  it("answers the server's configuration request itself, with nothing set", () => {
    const owner = new LspMessageRouter(false);
    const asked = request(
      "workspace/configuration",
      { items: [{ section: "bashIde" }, { section: "x" }] },
      0,
    );
    expect(owner.fromServer(asked)).toEqual({
      to: "server",
      message: { jsonrpc: "2.0", id: 0, result: [null, null] },
    });
    expect(owner.fromBrowser({ jsonrpc: "2.0", id: 0, result: [PYLINT_RUNS_PYTHON] } as Message)).toEqual({
      to: "nowhere",
    });
  });

  it("passes a browser's answer only to a request the server sent it, once", () => {
    const viewer = new LspMessageRouter(true);
    const answer = { jsonrpc: "2.0", id: 3, result: null } as Message;
    expect(viewer.fromBrowser(answer)).toEqual({ to: "nowhere" });
    expect(viewer.fromServer(request("client/registerCapability", {}, 3))).toMatchObject({ to: "browser" });
    expect(viewer.fromBrowser({ jsonrpc: "2.0", id: "3", result: null } as Message)).toEqual({
      to: "nowhere",
    });
    expect(viewer.fromBrowser(answer)).toEqual({ to: "server", message: answer });
    expect(viewer.fromBrowser(answer)).toEqual({ to: "nowhere" });
  });
});
