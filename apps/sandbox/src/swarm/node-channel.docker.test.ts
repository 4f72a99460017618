import { PassThrough } from "node:stream";
import { finished } from "node:stream/promises";
import tls from "node:tls";
import { COLLAB_TEXT } from "@coder/protocol";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type ModelServer, startModelServer } from "../../../../e2e/support/model-server";
import { collectEvents } from "../agent/testing/event-view";
import { sessionEventStream } from "../agent/testing/sse-events";
import { collabSocket, openDocument } from "../collab/testing/collab-client";
import { LABEL_WORKSPACE } from "../docker/container-spec";
import { connectLsp } from "../lsp/testing/lsp-client";
import { openTerminal, type SharedPlace, waitForStatus } from "../testing/harness";
import { until } from "../testing/until";
import { loadClusterTls } from "./node-channel/cluster-tls";
import { FrameKind } from "./node-channel/framed-socket";
import { NodeChannelClient } from "./node-channel/node-channel-client";
import { hostAndPort } from "./node-channel/node-routes";
import {
  type InstancePerNode,
  pinnedNode,
  type SwarmInstance,
  startInstancePerNode,
} from "./testing/instance-per-node";
import { makeClusterCertificates } from "./testing/test-certificates";
import type { TestSwarm } from "./testing/test-swarm";

/**
 * A swarm of a manager and a worker with one service instance per node on one PostgreSQL database,
 * as in production: each instance's engine is its own node's; the worker's reaches the manager's
 * engine API over TLS; a workspace's processes run through the instance on its node.
 */
describe("one service instance per node of a swarm", () => {
  let nodes: InstancePerNode;
  let swarm: TestSwarm;
  let place: SharedPlace;
  /** Places what it creates on the worker (CODER_SWARM_CONSTRAINTS). */
  let onManager: SwarmInstance;
  /** Places what it creates on the manager, through the manager's engine API over TLS. */
  let onWorker: SwarmInstance;
  /** The scripted OpenAI-compatible model both instances' agents talk to. */
  let model: ModelServer;
  const streams = new AbortController();

  /** The node a workspace's service is pinned to. */
  const nodeOf = (id: string) => pinnedNode(swarm, place.instance, id);

  /** Where an instance's node channel listens, as it wrote it in its row. */
  async function channelOf(instance: SwarmInstance): Promise<{ host: string; port: number }> {
    const row = await instance.service.db
      .selectFrom("service_instances")
      .select(["node_id", "node_address"])
      .where("id", "=", instance.service.instanceId)
      .executeTakeFirstOrThrow();
    if (!row.node_address) throw new Error("the instance announced no node channel");
    return hostAndPort(row.node_address);
  }

  /** A file of a workspace as its node's own engine reads it (not through any instance). */
  async function catOnWorker(id: string, file: string): Promise<string> {
    const [container] = await swarm.worker.docker.listContainers({
      filters: { label: [`${LABEL_WORKSPACE}=${id}`] },
    });
    if (!container) return "";
    const exec = await swarm.worker.docker.getContainer(container.Id).exec({
      Cmd: ["cat", `/workspace/${file}`],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({});
    const stdout = new PassThrough();
    swarm.worker.docker.modem.demuxStream(stream, stdout, new PassThrough());
    const chunks: Buffer[] = [];
    stdout.on("data", (c: Buffer) => chunks.push(c));
    await finished(stream);
    return Buffer.concat(chunks).toString();
  }

  async function runningOn(instance: SwarmInstance, name: string): Promise<string> {
    const { id } = await instance.api.workspace.create.mutate({ name });
    await waitForStatus(instance.api, id, "running", 120_000);
    return id;
  }

  beforeAll(async () => {
    model = await startModelServer();
    nodes = await startInstancePerNode({
      env: { CODER_OPENAI_COMPATIBLE_BASE_URL: model.baseURL, CODER_MODELS: "scripted" },
      onManager: { CODER_SWARM_CONSTRAINTS: "node.role==worker" },
      onWorker: { CODER_SWARM_CONSTRAINTS: "node.role==manager" },
    });
    ({ swarm, place, onManager, onWorker } = nodes);
  }, 300_000);
  afterAll(async () => {
    streams.abort();
    await nodes?.close();
    await model?.close();
  }, 300_000);

  describe("a workspace on the worker, used through the instance on the manager", () => {
    let id: string;
    beforeAll(async () => {
      id = await runningOn(onManager, "on-worker");
    }, 180_000);

    it("runs a terminal, the daemon's file tools and a language server of a workspace on the worker through the instance on the manager", async () => {
      expect(await nodeOf(id)).toBe(swarm.worker.nodeId);
      // The daemon answers through the node channel: its file tools write and read on the worker.
      await onManager.api.files.write.mutate({ workspaceId: id, path: "hello.sh", content: "echo routed\n" });
      expect((await onManager.api.files.read.query({ workspaceId: id, path: "hello.sh" })).content).toBe(
        "echo routed\n",
      );
      const worker = await swarm.worker.docker.listContainers({
        filters: { label: [`${LABEL_WORKSPACE}=${id}`] },
      });
      expect(worker.length).toBeGreaterThan(0);

      const url = onManager.service.url;
      const terminal = await openTerminal(url, onManager.cookie, id, "main");
      terminal.send("bash hello.sh; echo $((6*7))-on-$(hostname)\r");
      await terminal.waitFor(/42-on-\w+/, 30_000);
      expect(terminal.output()).toContain("routed");
      terminal.ws.close();

      const lsp = await connectLsp(`${url.replace("http", "ws")}/lsp/${id}/bash`, {
        origin: url,
        cookie: onManager.cookie,
      });
      const answer = await lsp.request("initialize", {
        processId: null,
        rootUri: "file:///workspace",
        capabilities: {},
      });
      expect(answer.error).toBeUndefined();
      expect(answer.result).toHaveProperty("capabilities");
      lsp.ws.close();
    }, 120_000);

    it("writes a live document typed through the instance on the manager to the disk on the worker", async () => {
      await onManager.api.files.write.mutate({ workspaceId: id, path: "live.txt", content: "hello\n" });
      const socket = collabSocket(onManager.service.url, onManager.cookie, id);
      try {
        const doc = openDocument(socket, "live.txt");
        await until(() => doc.provider.isSynced && doc.text() === "hello\n", "the document holds the file");
        const text = doc.doc.getText(COLLAB_TEXT);
        text.insert(text.length, "typed on the manager's instance\n");
        // Read on the worker's own engine: the file is in the workspace's volume there.
        await until(
          async () => (await catOnWorker(id, "live.txt")) === "hello\ntyped on the manager's instance\n",
          "the typing reaches the disk on the worker",
        );
      } finally {
        socket.destroy();
      }
    }, 120_000);

    it("runs an agent turn's tool through the instance on the manager in the workspace on the worker", async () => {
      model.push(
        { toolCalls: [{ name: "bash", args: { command: "echo agent-$((20+1)) > /workspace/agent.txt" } }] },
        { text: "done" },
      );
      const { id: sessionId } = await onManager.api.session.create.mutate({ workspaceId: id });
      const events = collectEvents(
        sessionEventStream(onManager.service.url, onManager.cookie, sessionId, streams.signal),
      );
      const { turnId } = await onManager.api.session.prompt.mutate({ sessionId, text: "write it" });
      const end = await events.waitFor((e) => e.type === "turn.finished" && e.turn.id === turnId, 120_000);
      expect(end.type === "turn.finished" && end.turn.status).toBe("done");
      expect(await catOnWorker(id, "agent.txt")).toBe("agent-21\n");
    }, 180_000);

    it("stops a workspace on the worker through one instance and starts it again through the other", async () => {
      await onManager.api.workspace.stop.mutate({ workspaceId: id });
      await waitForStatus(onWorker.api, id, "stopped", 120_000);
      await onWorker.api.workspace.start.mutate({ workspaceId: id });
      await waitForStatus(onManager.api, id, "running", 120_000);
      expect(await nodeOf(id)).toBe(swarm.worker.nodeId);
      expect((await onManager.api.files.read.query({ workspaceId: id, path: "live.txt" })).content).toContain(
        "typed on the manager's instance",
      );
    }, 240_000);

    it("deletes a workspace on the worker through the instance on the manager, its volumes there too", async () => {
      const volumes = async () =>
        (
          (await swarm.worker.docker.listVolumes({ filters: { label: [`${LABEL_WORKSPACE}=${id}`] } }))
            .Volumes ?? []
        ).length;
      expect(await volumes()).toBeGreaterThan(0);
      await onManager.api.workspace.delete.mutate({ workspaceId: id });
      await until(
        async () => (await volumes()) === 0,
        "the workspace's volumes on the worker are gone",
        60_000,
      );
      await until(
        async () => !(await onManager.api.workspace.list.query()).some((w) => w.id === id),
        "the workspace is gone from the list",
      );
    }, 120_000);
  });

  describe("the node channel", () => {
    let id: string;
    beforeAll(async () => {
      id = await runningOn(onManager, "attacked");
    }, 180_000);

    it("refuses a node-channel connection without a cluster certificate", async () => {
      const channel = await channelOf(onWorker);
      const stranger = await makeClusterCertificates(`${swarm.tls.ca}.stranger`, ["127.0.0.1"]);
      const cluster = loadClusterTls(swarm.tls);
      const attempts = [
        // No certificate at all; one of another CA (the server's is trusted all the same).
        { ca: cluster.ca },
        { ...loadClusterTls(stranger), ca: cluster.ca },
      ];
      for (const options of attempts) {
        const outcome = await new Promise<string>((resolve) => {
          const socket = tls.connect({ ...channel, ...options, minVersion: "TLSv1.3" });
          let heard = "";
          socket.on("secureConnect", () => {
            const request = Buffer.from(JSON.stringify({ op: "exec", workspaceId: id, cmd: ["id"] }));
            const header = Buffer.alloc(5);
            header[0] = FrameKind.control;
            header.writeUInt32BE(request.length, 1);
            socket.write(Buffer.concat([header, request]));
          });
          socket.on("data", (chunk: Buffer) => {
            heard += chunk.toString();
          });
          socket.on("error", (err) => resolve(`refused: ${err.message}`));
          socket.on("close", () => resolve(heard ? `answered: ${heard}` : "refused: closed"));
        });
        expect(outcome).toMatch(/^refused/);
      }
      // The instance serves on.
      expect((await onWorker.api.workspace.get.query({ workspaceId: id })).status).toBe("running");
    });

    it("refuses a request for a workspace that is not on this node", async () => {
      // With the cluster's certificate, asking the manager's instance for a workspace on the worker.
      const client = new NodeChannelClient(
        await channelOf(onManager),
        loadClusterTls(swarm.tls),
        swarm.manager.nodeId,
      );
      await expect(client.exec(id, ["touch", "/workspace/from-the-wrong-node"])).rejects.toThrow(
        /does not run on this instance's node/,
      );
      // The instance on its node runs it.
      const right = new NodeChannelClient(
        await channelOf(onWorker),
        loadClusterTls(swarm.tls),
        swarm.worker.nodeId,
      );
      const process = await right.exec(id, ["ls", "/workspace"]);
      let out = "";
      process.stdout.on("data", (c: Buffer) => {
        out += c.toString();
      });
      process.stdin.end();
      expect(await process.exited).toBe(0);
      expect(out).not.toContain("from-the-wrong-node");
    });
  });

  describe("an instance on a worker node", () => {
    it("creates workspaces through the instance on the worker node via the manager endpoint over TLS", async () => {
      const id = await runningOn(onWorker, "from-worker");
      expect(await nodeOf(id)).toBe(swarm.manager.nodeId);
      // Its terminal, on the manager's node, runs through the instance there.
      const url = onWorker.service.url;
      const terminal = await openTerminal(url, onWorker.cookie, id, "main");
      terminal.send("echo made-$((40+2))\r");
      await terminal.waitFor(/made-42/, 30_000);
      terminal.ws.close();
      await onWorker.api.workspace.stop.mutate({ workspaceId: id });
      await waitForStatus(onWorker.api, id, "stopped", 120_000);
    }, 240_000);

    it("refuses the manager endpoint to a client without the cluster's certificate", async () => {
      const { hostname, port } = new URL(swarm.managerEndpoint.replace("tcp:", "https:"));
      const cluster = loadClusterTls(swarm.tls);
      const without = new Docker({ host: hostname, port: Number(port), protocol: "https", ca: cluster.ca });
      await expect(without.info()).rejects.toThrow();
      const plain = new Docker({ host: hostname, port: Number(port), protocol: "http" });
      await expect(plain.info()).rejects.toThrow();
      const withCertificate = new Docker({
        host: hostname,
        port: Number(port),
        protocol: "https",
        ...cluster,
      });
      expect(
        ((await withCertificate.info()) as { Swarm: { ControlAvailable: boolean } }).Swarm.ControlAvailable,
      ).toBe(true);
    });
  });

  it("says which machine has no instance answering when the worker's instance is gone", async () => {
    const id = await runningOn(onManager, "orphaned");
    await place.stop(onWorker.service);
    const url = onManager.service.url;
    const ws = new WebSocket(`${url.replace("http", "ws")}/terminal/${id}/second`, {
      headers: { origin: url, cookie: onManager.cookie },
    });
    let told = "";
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      if (!isBinary) told += data.toString();
    });
    await until(
      () => told.includes(`node ${swarm.worker.nodeId}) has no coder service instance answering`),
      "the terminal says the worker's machine has no instance",
    );
    ws.close();
  }, 240_000);
});
