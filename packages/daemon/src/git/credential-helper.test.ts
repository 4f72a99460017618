import { mkdtempSync, rmSync, statSync } from "node:fs";
import type { Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { DaemonRequestParams } from "@coder/protocol";
import { afterEach, describe, expect, it } from "vitest";
import type { AskCredential } from "./credential-channel";
import { runCredentialHelper } from "./credential-helper";
import { listenForBoundCredentials } from "./credential-socket";

describe("the credential helper of git in a terminal", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  async function setup(answer: Awaited<ReturnType<AskCredential>>) {
    const dir = mkdtempSync(path.join(tmpdir(), "coder-helper-"));
    const socketPath = path.join(dir, "run", "credential.sock");
    const asked: DaemonRequestParams<"credential.get">[] = [];
    const server: Server = await listenForBoundCredentials(
      socketPath,
      dir,
      async (request) => {
        asked.push(request);
        return answer;
      },
      () => undefined,
    );
    cleanups.push(() => {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const helper = async (action: string, request: string) => {
      const input = new PassThrough();
      const output = new PassThrough();
      let printed = "";
      output.on("data", (chunk: Buffer) => {
        printed += chunk.toString();
      });
      input.end(request);
      await runCredentialHelper(action, socketPath, input, output);
      return printed;
    };
    return { asked, helper, socketPath };
  }

  it("asks the daemon without a call's id, in a folder only its user may enter, and prints the login for git", async () => {
    const { asked, helper, socketPath } = await setup({ username: "x-access-token", password: "bound" });
    expect(await helper("get", "protocol=https\nhost=example.test\n")).toBe(
      "username=x-access-token\npassword=bound\n",
    );
    expect(asked).toEqual([{ requestId: null, protocol: "https", host: "example.test" }]);
    expect(statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
  });

  it("answers git at once with nothing when the owner bound nothing, and ignores store and erase", async () => {
    const { asked, helper } = await setup(null);
    expect(await helper("get", "protocol=https\nhost=example.test\n\n")).toBe("");
    expect(await helper("store", "protocol=https\nhost=example.test\nusername=a\npassword=b\n\n")).toBe("");
    expect(await helper("erase", "protocol=https\nhost=example.test\n\n")).toBe("");
    expect(asked).toHaveLength(1);
  });
});
