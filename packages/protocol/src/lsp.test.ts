import { describe, expect, it } from "vitest";
import {
  DEFAULT_LSP_SERVERS,
  lspLanguageIdForPath,
  lspServerFor,
  lspServerForPath,
  parseLspServers,
  resolveLspServers,
} from "./lsp";

describe("the language server table", () => {
  it("serves shell scripts with bash-language-server and Python with pylsp by default", () => {
    const servers = parseLspServers(undefined);
    expect(servers).toEqual(DEFAULT_LSP_SERVERS);
    expect(lspServerForPath(servers, "scripts/build.sh")?.command).toEqual(["bash-language-server", "start"]);
    expect(lspServerForPath(servers, "x.bash")?.language).toBe("bash");
    expect(lspServerForPath(servers, "/workspace/src/App.PY")?.command).toEqual(["pylsp"]);
    expect(lspServerForPath(servers, "README")).toBeUndefined();
    expect(lspServerForPath(servers, ".bashrc")).toBeUndefined();
    expect(lspServerFor(servers, "python")?.install).toContain("python-lsp-server");
  });

  it("serves TypeScript and JavaScript with typescript-language-server, naming each file's dialect", () => {
    const servers = parseLspServers(undefined);
    const dialects = Object.fromEntries(
      ["a.ts", "b.tsx", "c.js", "d.jsx", "e.mjs", "f.cjs", "g.MTS"].map((file) => {
        const server = lspServerForPath(servers, `src/${file}`);
        expect(server?.command).toEqual(["typescript-language-server", "--stdio"]);
        return [file, server && lspLanguageIdForPath(server, file)];
      }),
    );
    expect(dialects).toEqual({
      "a.ts": "typescript",
      "b.tsx": "typescriptreact",
      "c.js": "javascript",
      "d.jsx": "javascriptreact",
      "e.mjs": "javascript",
      "f.cjs": "javascript",
      "g.MTS": "typescript",
    });
    const python = lspServerFor(servers, "python");
    expect(python && lspLanguageIdForPath(python, "x.py")).toBe("python");
  });

  it("lets a configured list replace a default by language and add new languages", () => {
    const servers = parseLspServers(
      JSON.stringify([
        {
          language: "python",
          command: ["pyright-langserver", "--stdio"],
          extensions: [".py", "PYI"],
          install: "npm i -g pyright",
        },
        {
          language: "typescript",
          command: ["typescript-language-server", "--stdio"],
          extensions: ["ts"],
          install: "npm i -g typescript-language-server",
        },
      ]),
    );
    expect(servers.map((s) => s.language)).toEqual(["bash", "python", "typescript"]);
    expect(lspServerForPath(servers, "a.pyi")?.command[0]).toBe("pyright-langserver");
    expect(lspServerForPath(servers, "a.js")).toBeUndefined();
    expect(resolveLspServers()).toEqual(DEFAULT_LSP_SERVERS);
  });

  it("refuses a malformed list with a message naming the field", () => {
    expect(() => parseLspServers("not json")).toThrow(/must be JSON/);
    expect(() =>
      parseLspServers('[{"language":"go","command":[],"extensions":["go"],"install":"x"}]'),
    ).toThrow(/0\.command: command needs at least the program/);
    expect(() =>
      parseLspServers(
        JSON.stringify([
          { language: "go", command: ["gopls"], extensions: ["go"], install: "x" },
          { language: "go", command: ["gopls"], extensions: ["go"], install: "x" },
        ]),
      ),
    ).toThrow(/go is listed twice/);
  });
});
