import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execIn, openTerminal, startTestService, type TestService, waitForStatus } from "../testing/harness";

describe("terminals", () => {
  let t: TestService;
  let id: string;
  beforeAll(async () => {
    t = await startTestService();
    id = (await t.api.workspace.create.mutate({ name: "terminals" })).id;
    await waitForStatus(t.api, id, "running");
  });
  afterAll(async () => {
    await t?.close();
  });

  it("runs a shell as coder in /workspace", async () => {
    const term = await openTerminal(t.url, t.cookie, id, "basics");
    term.send('echo "$(id -un):$(pwd)"\r');
    await term.waitFor(/coder:\/workspace/);
    term.ws.close();
  });

  it("shows the same session to a second viewer and keeps it after the tab closes", async () => {
    const first = await openTerminal(t.url, t.cookie, id, "shared");
    first.send("echo marker-$((6*7))\r");
    await first.waitFor(/marker-42/);
    const second = await openTerminal(t.url, t.cookie, id, "shared");
    await second.waitFor(/marker-42/);
    first.ws.close();
    second.ws.close();
    await sleep(300);
    const sessions = await execIn(t.instance, id, ["tmux", "list-sessions", "-F", "#{session_name}"]);
    expect(sessions.out).toContain("shared");
    const again = await openTerminal(t.url, t.cookie, id, "shared");
    await again.waitFor(/marker-42/);
    again.ws.close();
  });

  it("survives an output flood with bounded unacknowledged output", async () => {
    const term = await openTerminal(t.url, t.cookie, id, "flood");
    term.ws.removeAllListeners("message");
    let received = 0;
    let acked = 0;
    let text = "";
    term.ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (!isBinary) return;
      received += data.length;
      text = (text + data.toString()).slice(-4000);
    });
    term.send("yes coder-flood | head -c 50000000; echo flood-done\r");
    // Do not ack for a while: the service must stop sending once the high-water mark is reached.
    await sleep(1500);
    const unackedPeak = received;
    expect(unackedPeak).toBeLessThan(4 * 1024 * 1024);
    // Now ack everything as it arrives; the command finishes and the prompt returns.
    const ack = () => {
      term.ws.send(JSON.stringify({ type: "ack", bytes: received - acked }));
      acked = received;
    };
    const timer = setInterval(ack, 20);
    const deadline = Date.now() + 60_000;
    while (!/flood-done/.test(text) && Date.now() < deadline) await sleep(50);
    clearInterval(timer);
    expect(text).toMatch(/flood-done/);
    term.ws.close();
  });

  it("comes back after a stop in its folder with its last screen, saying its processes ended", async () => {
    const term = await openTerminal(t.url, t.cookie, id, "kept");
    term.send("mkdir -p deep/er && cd deep/er && echo before-$((2*21)) && sleep 600\r");
    await term.waitFor(/before-42/);
    await t.api.workspace.stop.mutate({ workspaceId: id });
    term.ws.close();
    await t.api.workspace.start.mutate({ workspaceId: id });
    await waitForStatus(t.api, id, "running");

    const again = await openTerminal(t.url, t.cookie, id, "kept");
    await again.waitFor(/ended the processes of this terminal/);
    expect(again.output()).toContain("before-42");
    again.send('echo "now in $(pwd)"\r');
    await again.waitFor(/now in \/workspace\/deep\/er/);
    // Restored once: after this session ends, the next one starts fresh.
    again.send("exit\r");
    await new Promise((r) => again.ws.once("close", r));
    const fresh = await openTerminal(t.url, t.cookie, id, "kept");
    fresh.send("echo fresh-$((3*3))\r");
    await fresh.waitFor(/fresh-9/);
    expect(fresh.output()).not.toMatch(/ended the processes of this terminal|before-42/);
    fresh.ws.close();
  });

  it("ends the terminal when the workspace is deleted", async () => {
    const doomed = (await t.api.workspace.create.mutate({ name: "doomed" })).id;
    await waitForStatus(t.api, doomed, "running");
    const term = await openTerminal(t.url, t.cookie, doomed, "main");
    await term.waitFor(/\$ /);
    const closed = new Promise<void>((resolve) => term.ws.once("close", () => resolve()));
    await t.api.workspace.delete.mutate({ workspaceId: doomed });
    await closed;
    await expect(t.api.workspace.get.query({ workspaceId: doomed })).rejects.toThrow(/does not exist/);
  });

  it("answers a malformed control message with an error and keeps the terminal open", async () => {
    const term = await openTerminal(t.url, t.cookie, id, "control");
    const errors: string[] = [];
    term.ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (!isBinary) errors.push(data.toString());
    });
    term.ws.send("not json");
    term.ws.send(JSON.stringify({ type: "resize", cols: -1, rows: 5 }));
    await sleep(300);
    expect(errors.filter((e) => e.includes('"error"'))).toHaveLength(2);
    term.send("echo still-$((1+1))\r");
    await term.waitFor(/still-2/);
    term.ws.close();
  });
});
