import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newInstance, requireImage } from "../testing/harness";
import { LABEL_INSTANCE, LABEL_MANAGED } from "./container-spec";
import { runJobContainer } from "./job-container";
import { stallingEngine } from "./testing/stalling-engine";

const docker = new Docker();
const instance = newInstance();
/** The engine answers everything but the start of a container. */
let engine: Awaited<ReturnType<typeof stallingEngine>>;

const job = () => ({
  Image: requireImage(),
  Entrypoint: ["sh", "-c", "echo done"],
  Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: instance },
  HostConfig: { NetworkMode: "none" },
});

/** The job containers of this test still on the engine. */
const leftovers = () =>
  docker.listContainers({ all: true, filters: { label: [`${LABEL_INSTANCE}=${instance}`] } });

beforeAll(async () => {
  engine = await stallingEngine(/^POST \S*\/containers\/[^/]+\/start/);
});
afterAll(async () => {
  engine?.close();
  for (const c of await leftovers()) await docker.getContainer(c.Id).remove({ force: true });
});

describe("a job container the engine never starts", () => {
  it("fails saying the engine did not start it, instead of waiting for ever, and leaves no container", async () => {
    const stuck = new Docker({ socketPath: engine.socketPath });
    const run = runJobContainer(stuck, job(), { outputLimit: 1000, answerMs: 3000 });
    await expect(run).rejects.toThrow("the Docker engine did not start the job's container in 3 s");
    expect(engine.held()).toBeGreaterThan(0);
    expect(await leftovers()).toEqual([]);
  }, 30_000);

  it("ends at once when what waits for it is cancelled (a workspace deleted while it is made)", async () => {
    const stuck = new Docker({ socketPath: engine.socketPath });
    const cancel = new AbortController();
    const held = engine.held();
    const run = runJobContainer(stuck, job(), { outputLimit: 1000, signal: cancel.signal });
    await expect.poll(() => engine.held()).toBeGreaterThan(held);
    cancel.abort(new Error("the workspace was deleted"));
    await expect(run).rejects.toThrow("the workspace was deleted");
    expect(await leftovers()).toEqual([]);
  }, 30_000);
});

describe("a job container on an engine that answers", () => {
  it("runs to its end and gives its output", async () => {
    const result = await runJobContainer(docker, job(), { outputLimit: 1000 });
    expect(result).toEqual({ statusCode: 0, output: "done\n" });
    expect(await leftovers()).toEqual([]);
  });
});
