import { containerLayout } from "@coder/protocol";
import { describe, expect, it } from "vitest";
import { serviceSpec } from "./service-spec";

const opts = { instance: "t1", runtime: "runc" as const, memoryBytes: 1e9, nanoCpus: 1e9, pidsLimit: 256 };
const placement = {
  constraints: ["node.labels.coder==yes"],
  gvisorConstraint: "node.labels.coder.runtime==runsc",
  reservations: { memoryBytes: 1, nanoCpus: 1 },
};
const spec = { id: "abcdefabcdef", image: "img", egress: false };

function constraintsOf(runtime: "runc" | "runsc"): string[] | undefined {
  const service = serviceSpec(spec, { ...opts, runtime }, placement, 0);
  return service.TaskTemplate?.Placement?.Constraints;
}

function volumeTargets(volumes: boolean): string[] {
  const task = serviceSpec(spec, opts, placement, 0, { volumes }).TaskTemplate as {
    ContainerSpec: { Mounts: { Type: string; Target: string }[] };
  };
  return task.ContainerSpec.Mounts.filter((m) => m.Type === "volume").map((m) => m.Target);
}

describe("a workspace's Swarm service", () => {
  it("is placed under gVisor only on the nodes labelled for runsc, under runc wherever the constraints allow", () => {
    expect(constraintsOf("runsc")).toEqual(["node.labels.coder==yes", "node.labels.coder.runtime==runsc"]);
    expect(constraintsOf("runc")).toEqual(["node.labels.coder==yes"]);
  });

  it("is first made without its volumes when they are to be disk images on its node", () => {
    expect(volumeTargets(true)).toEqual([containerLayout.workspace, containerLayout.stateDir]);
    expect(volumeTargets(false)).toEqual([]);
  });
});
