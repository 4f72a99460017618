import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, joinShare, startTestService, type TestService, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { connectLsp, type LspSocketClient } from "./testing/lsp-client";

/** pylsp's pylint plugin told to run python3 on the open document: its text arrives on stdin (`-`). */
const PYLINT_RUNS_PYTHON = {
  pylsp: { plugins: { pylint: { enabled: true, executable: "/usr/bin/python3", args: ["-"] } } },
};
/** bash-language-server told that a program of the workspace is its shellcheck. */
const shellcheckIs = (program: string) => ({ bashIde: { shellcheckPath: program } });

type Person = "viewer" | "editor" | "owner";

/** Whether the workspace holds `path` (a file a payload would have written). */
async function exists(t: TestService, workspaceId: string, path: string): Promise<boolean> {
  return (await execIn(t.instance, workspaceId, ["test", "-e", path])).code === 0;
}

function diagnosticsFor(client: LspSocketClient, uri: string, source: string): boolean {
  return client.notifications.some((n) => {
    const params = n.params as { uri?: string; diagnostics?: { source?: string }[] };
    return (
      n.method === "textDocument/publishDiagnostics" &&
      params.uri === uri &&
      (params.diagnostics ?? []).some((d) => d.source === source)
    );
  });
}

/**
 * The attack of issue 17 through the service's real `/lsp` route: the configuration travels in every
 * way a browser could send it (initializationOptions, didChangeConfiguration, the answer to the
 * server's workspace/configuration request), then a document is opened.
 */
async function configureAndOpen(
  t: TestService,
  workspaceId: string,
  cookie: string,
  language: "python" | "bash",
  settings: object,
  document: { uri: string; languageId: string; text: string },
): Promise<LspSocketClient> {
  const client = await connectLsp(
    `${t.url.replace("http", "ws")}/lsp/${workspaceId}/${language}`,
    { origin: t.url, cookie },
    (method, params) =>
      method === "workspace/configuration"
        ? ((params as { items?: { section?: string }[] }).items ?? []).map(
            (item) => (settings as Record<string, unknown>)[item.section ?? ""] ?? settings,
          )
        : null,
  );
  const initialized = await client.request("initialize", {
    processId: null,
    rootUri: null,
    capabilities: { workspace: { configuration: true, didChangeConfiguration: {} } },
    initializationOptions: settings,
  });
  expect(initialized.error).toBeUndefined();
  client.notify("initialized", {});
  client.notify("workspace/didChangeConfiguration", { settings });
  client.notify("textDocument/didOpen", { textDocument: { ...document, version: 1 } });
  return client;
}

describe("a language server's configuration comes from the service, never from a browser", () => {
  let t: TestService;
  let id: string;
  const cookies = {} as Record<Person, string>;

  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "lsp-config" })).id;
    await waitForStatus(t.api, id, "running");
    const join = async (role: "viewer" | "editor", name: string) =>
      joinShare(t.url, (await t.api.share.create.mutate({ workspaceId: id, role })).url, name);
    cookies.viewer = await join("viewer", "Vera");
    cookies.editor = await join("editor", "Ed");
    cookies.owner = t.cookie;
    // Programs already in the repository, which a browser's configuration could name.
    for (const person of ["viewer", "owner"]) {
      const program = `/workspace/not-shellcheck-${person}.sh`;
      await execIn(t.instance, id, ["sh", "-c", `printf '#!/bin/sh\\ntouch ${program}.ran\\n' > ${program}`]);
      await execIn(t.instance, id, ["chmod", "+x", program]);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each<Person>([
    "viewer",
    "editor",
    "owner",
  ])("a %s who tells pylsp to lint with python3 gets pyflakes' diagnostics, and the document's code never runs", async (person) => {
    const written = `/workspace/pwned-by-${person}`;
    const uri = `file:///workspace/attack-${person}.py`;
    const text = `import os\nopen("${written}", "w").write("ran")\n`;
    const client = await configureAndOpen(t, id, cookies[person], "python", PYLINT_RUNS_PYTHON, {
      uri,
      languageId: "python",
      text,
    });
    // pylsp runs every linter of a pass before it publishes: pyflakes' answer means pylint's turn is over.
    await until(
      async () => diagnosticsFor(client, uri, "pyflakes") || (await exists(t, id, written)),
      "pylsp linted the document",
    );
    expect(await exists(t, id, written)).toBe(false);
    const hover = await client.request("textDocument/hover", {
      textDocument: { uri },
      position: { line: 1, character: 1 },
    });
    expect(JSON.stringify(hover.result)).toContain("open");
    client.ws.close();
  });

  it.each<Person>([
    "viewer",
    "owner",
  ])("a %s who names a workspace program as bash-language-server's shellcheck gets shellcheck's own diagnostics", async (person) => {
    const program = `/workspace/not-shellcheck-${person}.sh`;
    const uri = `file:///workspace/attack-${person}.sh`;
    const client = await configureAndOpen(t, id, cookies[person], "bash", shellcheckIs(program), {
      uri,
      languageId: "shellscript",
      text: "#!/bin/bash\necho $1\n",
    });
    await until(
      async () => diagnosticsFor(client, uri, "shellcheck") || (await exists(t, id, `${program}.ran`)),
      "bash-language-server linted the document",
    );
    expect(await exists(t, id, `${program}.ran`)).toBe(false);
    client.ws.close();
  });
});
