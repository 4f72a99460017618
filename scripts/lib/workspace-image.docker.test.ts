import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBaseImage } from "./base-image.mjs";
import { ensureWorkspaceImage } from "./workspace-image.mjs";

const exec = promisify(execFile);

// npm test builds the image first and passes its tag; a bare vitest run builds it here.
let image: string;
beforeAll(async () => {
  image = process.env.CODER_IMAGE ?? (await ensureWorkspaceImage(await ensureBaseImage()));
});

/** Runs a bash script in a throwaway container without network and returns its output lines. */
async function inContainer(script: string, dockerArgs: string[] = []): Promise<string[]> {
  const { stdout } = await exec("docker", [
    "run",
    "--rm",
    "--network",
    "none",
    ...dockerArgs,
    image,
    "bash",
    "-c",
    script,
  ]);
  return stdout.trim().split("\n");
}

type LspMessage = { id?: number; method?: string; params?: { diagnostics?: { message: string }[] } };

/** Talks LSP (Content-Length framing) to `command` in a container until `done` says so. */
function lspSession(command: string, requests: object[], done: (message: LspMessage) => boolean) {
  const child = spawn("docker", ["run", "--rm", "-i", "--network", "none", image, command]);
  for (const request of requests) {
    const body = JSON.stringify({ jsonrpc: "2.0", ...request });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  // Bounds a server that never answers: at end of input it exits, and the promise rejects.
  const giveUp = setTimeout(() => child.stdin.end(), 60_000);
  return new Promise<LspMessage>((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    child.stdout.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf("\r\n\r\n");
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
        if (headerEnd === -1 || buffer.length < headerEnd + 4 + length) return;
        const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
        buffer = buffer.subarray(headerEnd + 4 + length);
        if (done(message)) {
          clearTimeout(giveUp);
          child.stdin.end(); // the server exits at end of input, and the container with it
          resolve(message);
          return;
        }
      }
    });
    child.on("close", (code) => {
      clearTimeout(giveUp);
      reject(new Error(`${command} exited (${code}) before answering`));
    });
  });
}

describe("the workspace image", () => {
  it("runs as the non-root user coder (uid/gid 1000) in /workspace with a UTF-8 locale", async () => {
    expect(await inContainer('id -u; id -g; id -un; pwd; echo "$HOME"; echo "$LANG"')).toEqual([
      "1000",
      "1000",
      "coder",
      "/workspace",
      "/home/coder",
      "C.UTF-8",
    ]);
  });

  it("gives a new named volume on /workspace to coder, who can write to it", async () => {
    const volume = `coder-test-${randomBytes(4).toString("hex")}`;
    await exec("docker", ["volume", "create", volume]);
    try {
      const lines = await inContainer("stat -c %u:%g /workspace && touch /workspace/file && echo written", [
        "-v",
        `${volume}:/workspace`,
      ]);
      expect(lines).toEqual(["1000:1000", "written"]);
    } finally {
      await exec("docker", ["volume", "rm", volume]);
    }
  });

  it("has the tools the agent, the terminal and the language servers use", async () => {
    const tools = [
      "bash",
      "git",
      "rg",
      "tmux",
      "python3",
      "pylsp",
      "node",
      "bash-language-server",
      "typescript-language-server",
      "less",
      "ps",
    ];
    const lines = await inContainer(
      `for tool in ${tools.join(" ")}; do command -v "$tool" >/dev/null && echo "$tool"; done; ` +
        "bash-language-server --version; pylsp --version; node --version; typescript-language-server --version",
    );
    expect(lines.slice(0, tools.length)).toEqual(tools);
    expect(lines[tools.length]).toMatch(/^5\.\d+\.\d+$/);
    expect(lines[tools.length + 1]).toMatch(/^pylsp v/);
    expect(lines[tools.length + 2]).toMatch(/^v18\./);
    expect(lines[tools.length + 3]).toMatch(/^4\.4\.\d+$/);
  });

  it("carries the daemon bundle as valid JavaScript for the image's Node", async () => {
    expect(await inContainer("node --check /opt/coder/daemon.mjs && echo ok")).toEqual(["ok"]);
  });

  it("starts tmux set up for a web terminal under the default hardening", async () => {
    const hardening = [
      "--read-only",
      "--tmpfs",
      "/tmp",
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
    ];
    const lines = await inContainer(
      "tmux new-session -d -s main && tmux show -sv default-terminal && tmux show -sv escape-time && " +
        "tmux show -gv history-limit && tmux show -gv status && tmux show -gwv window-size",
      hardening,
    );
    expect(lines).toEqual(["xterm-256color", "0", "50000", "off", "smallest"]);
  });

  it("reports Python errors through pylsp and pyflakes", async () => {
    const uri = "file:///workspace/main.py";
    const diagnostics = await lspSession(
      "pylsp",
      [
        {
          id: 1,
          method: "initialize",
          params: { processId: null, rootUri: "file:///workspace", capabilities: {} },
        },
        { method: "initialized", params: {} },
        {
          method: "textDocument/didOpen",
          params: {
            textDocument: { uri, languageId: "python", version: 1, text: "print(undefined_name)\n" },
          },
        },
      ],
      (message) =>
        message.method === "textDocument/publishDiagnostics" && !!message.params?.diagnostics?.length,
    );
    expect(diagnostics.params?.diagnostics?.map((diagnostic) => diagnostic.message)).toContain(
      "undefined name 'undefined_name'",
    );
  });
});
