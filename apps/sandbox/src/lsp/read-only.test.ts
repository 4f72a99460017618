import { describe, expect, it } from "vitest";
import type { Message } from "vscode-jsonrpc";
import { readOnlyRefusal } from "./read-only";

const request = (method: string) => ({ jsonrpc: "2.0", id: 7, method, params: {} }) as Message;

describe("a viewer's language-server connection", () => {
  it("refuses rename, commands and formatting with an error answer", () => {
    for (const method of ["textDocument/rename", "workspace/executeCommand", "textDocument/formatting"]) {
      expect(readOnlyRefusal(request(method))).toMatchObject({ id: 7, error: { code: -32803 } });
    }
  });

  it("lets reading requests and document sync through", () => {
    expect(readOnlyRefusal(request("textDocument/hover"))).toBeUndefined();
    expect(readOnlyRefusal(request("textDocument/completion"))).toBeUndefined();
    const didChange = { jsonrpc: "2.0", method: "textDocument/didChange", params: {} } as Message;
    expect(readOnlyRefusal(didChange)).toBeUndefined();
  });
});
