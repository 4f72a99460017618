import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService, waitForStatus } from "../testing/harness";

/** A server added by configuration: bash-language-server again, for `.zsh` files. */
const EXTRA = {
  language: "zsh",
  command: ["bash-language-server", "start"],
  extensions: ["zsh"],
  languageId: "shellscript",
  install: "npm install -g bash-language-server",
};

describe("language servers added with CODER_LSP_SERVERS", () => {
  let t: TestService;
  let id: string;
  beforeAll(async () => {
    t = await startTestService({}, { CODER_LSP_SERVERS: JSON.stringify([EXTRA]) });
    id = (await t.api.workspace.create.mutate({ name: "lsp config" })).id;
    await waitForStatus(t.api, id, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("are offered to the editor next to the defaults", async () => {
    const languages = (await t.api.lsp.servers.query()).map((s) => s.language);
    expect(languages.sort()).toEqual(["bash", "python", "typescript", "zsh"]);
  });

  it("serve the agent's lsp tools in the workspace too", async () => {
    await t.api.files.write.mutate({
      workspaceId: id,
      path: "run.zsh",
      content: "greet() {\n  echo hi\n}\ngreet\n",
    });
    const { result } = await t.api.tools.execute.mutate({
      workspaceId: id,
      tool: "lsp_definition",
      args: { path: "run.zsh", line: 3, character: 1 },
    });
    expect(result).toMatchObject({ ok: true, location: { range: { start: { line: 0 } } } });
  });
});
