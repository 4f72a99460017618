import { DEFAULT_LSP_SERVERS, resolveLspServers } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { daemonCommand } from "./daemon-connection";

describe("the daemon's command line", () => {
  it("is the plain daemon when only the default language servers are in use", () => {
    expect(daemonCommand(DEFAULT_LSP_SERVERS)).toEqual([
      "/opt/coder/node",
      "/opt/coder/daemon.mjs",
      "--root",
      "/workspace",
    ]);
  });

  it("carries configured language servers as the tools config", () => {
    const servers = resolveLspServers([
      {
        language: "ts",
        command: ["typescript-language-server", "--stdio"],
        extensions: ["ts"],
        install: "npm i -g x",
      },
    ]);
    const command = daemonCommand(servers);
    expect(command.slice(0, 5)).toEqual([
      "/opt/coder/node",
      "/opt/coder/daemon.mjs",
      "--root",
      "/workspace",
      "--config",
    ]);
    expect(JSON.parse(command[5] ?? "")).toEqual({ lsp: { servers } });
  });
});
