import { describe, expect, it } from "vitest";
import { isExitNotification, parseClientMessage, rewriteClientMessage } from "./rewrite";

describe("rewriteClientMessage", () => {
  it("nulls initialize.processId, forces the root to file:///workspace and keeps only what an editor may choose", () => {
    const rewritten = rewriteClientMessage({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        processId: 31337,
        rootPath: "/home/me/p",
        rootUri: "file:///home/me/p",
        workspaceFolders: [
          { uri: "file:///home/me/p", name: "p" },
          { uri: "file:///etc", name: "etc" },
        ],
        capabilities: { general: {} },
        clientInfo: { name: "CodeMirror" },
        trace: "loud",
        initializationOptions: { pylsp: { plugins: { pylint: { executable: "/usr/bin/python3" } } } },
      },
    } as never);
    expect(rewritten).toEqual({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        processId: null,
        rootPath: "/workspace",
        rootUri: "file:///workspace",
        workspaceFolders: [{ uri: "file:///workspace", name: "workspace" }],
        capabilities: { general: {} },
        clientInfo: { name: "CodeMirror" },
      },
    });
  });

  it("gives the server the service's initialization options in place of the browser's", () => {
    const rewritten = rewriteClientMessage(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          capabilities: {},
          initializationOptions: { tsserver: { path: "/tmp/evil.js" }, maxTsServerMemory: 1 },
        },
      } as never,
      { tsserver: { useSyntaxServer: "never" } },
    );
    expect(
      (rewritten as unknown as { params: { initializationOptions: unknown } }).params.initializationOptions,
    ).toEqual({
      tsserver: { useSyntaxServer: "never" },
    });
  });

  it("gives an initialize without params the container's root", () => {
    const rewritten = rewriteClientMessage({ jsonrpc: "2.0", id: 1, method: "initialize" } as never);
    expect(rewritten).toMatchObject({ params: { processId: null, rootUri: "file:///workspace" } });
  });

  it("passes every other message through untouched", () => {
    const hover = { jsonrpc: "2.0", id: 2, method: "textDocument/hover", params: { processId: 5 } };
    expect(rewriteClientMessage(hover as never)).toBe(hover);
    const notification = { jsonrpc: "2.0", method: "initialize", params: { processId: 5 } };
    expect(rewriteClientMessage(notification as never)).toBe(notification);
    const response = { jsonrpc: "2.0", id: 3, result: { processId: 5 } };
    expect(rewriteClientMessage(response as never)).toBe(response);
  });
});

describe("parseClientMessage", () => {
  it("accepts one JSON-RPC 2.0 object and nothing else", () => {
    expect(parseClientMessage('{"jsonrpc":"2.0","method":"exit"}')).toEqual({
      jsonrpc: "2.0",
      method: "exit",
    });
    expect(parseClientMessage("{")).toBeUndefined();
    expect(parseClientMessage("[]")).toBeUndefined();
    expect(parseClientMessage("null")).toBeUndefined();
    expect(parseClientMessage('{"jsonrpc":"1.0","method":"x"}')).toBeUndefined();
  });
});

describe("isExitNotification", () => {
  it("recognises the exit notification only", () => {
    expect(isExitNotification({ jsonrpc: "2.0", method: "exit" } as never)).toBe(true);
    expect(isExitNotification({ jsonrpc: "2.0", id: 1, method: "exit" } as never)).toBe(false);
    expect(isExitNotification({ jsonrpc: "2.0", method: "shutdown" } as never)).toBe(false);
  });
});
