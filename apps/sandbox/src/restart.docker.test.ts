import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  login,
  newInstance,
  openTerminal,
  removeInstance,
  requireImage,
  spawnService,
  trpcClient,
  waitForStatus,
} from "./testing/harness";

describe("a service killed with SIGKILL", () => {
  const instance = newInstance();
  const dataDir = mkdtempSync(path.join(tmpdir(), "coder-restart-"));
  const env = {
    CODER_IMAGE: requireImage(),
    CODER_DATA_DIR: dataDir,
    CODER_PORT: "0",
    CODER_INSTANCE: instance,
  };
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill("SIGKILL");
    await removeInstance(instance);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("comes back with its workspaces, their files and their terminals", async () => {
    const first = await spawnService(env);
    child = first.child;
    const cookie = await login(first.url, first.token ?? "");
    const api = trpcClient(first.url, cookie);
    const { id } = await api.workspace.create.mutate({ name: "survivor" });
    await waitForStatus(api, id, "running");
    await api.files.write.mutate({ workspaceId: id, path: "kept.txt", content: "still here\n" });
    const term = await openTerminal(first.url, cookie, id, "main");
    term.send("echo before-the-crash\r");
    await term.waitFor(/before-the-crash/);
    term.ws.close();

    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));

    const second = await spawnService(env);
    child = second.child;
    expect(second.token).toBeUndefined(); // the admin token is printed only at first start
    const cookie2 = await login(second.url, first.token ?? "");
    const api2 = trpcClient(second.url, cookie2);
    const list = await api2.workspace.list.query();
    expect(list.map((w) => [w.id, w.status])).toEqual([[id, "running"]]);
    const file = await api2.files.read.query({ workspaceId: id, path: "kept.txt" });
    expect(file.content).toBe("still here\n");
    const again = await openTerminal(second.url, cookie2, id, "main");
    await again.waitFor(/before-the-crash/);
    again.ws.close();
  });
});
