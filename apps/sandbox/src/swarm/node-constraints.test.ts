import { describe, expect, it } from "vitest";
import { type ConstrainedNode, unmetConstraint } from "./node-constraints";

const worker: ConstrainedNode = {
  ID: "n0de1",
  Spec: { Role: "worker", Labels: { coder: "yes", "coder.runtime": "runsc" } },
  Description: {
    Hostname: "box-2",
    Platform: { OS: "linux", Architecture: "x86_64" },
    Engine: { Labels: { zone: "A" } },
  },
  Status: { Addr: "10.0.3.7" },
};

describe("a node against CODER_SWARM_CONSTRAINTS, as Swarm places", () => {
  it("meets constraints on its id, name, role, platform, labels and address, values in any case", () => {
    expect(
      unmetConstraint(
        [
          "node.id==n0de1",
          "node.hostname!=box-1",
          "node.role==Worker",
          "node.platform.os==linux",
          "node.platform.arch==x86_64",
          "node.labels.coder==yes",
          "node.labels.coder.runtime == runsc",
          "engine.labels.zone==a",
          "node.ip==10.0.3.0/24",
          "node.ip!=10.0.3.8",
        ],
        worker,
      ),
    ).toBeUndefined();
  });

  it("names the first constraint it does not meet: a missing label counts as empty", () => {
    expect(unmetConstraint(["node.labels.coder==yes", "node.role==manager"], worker)).toBe(
      "node.role==manager",
    );
    expect(unmetConstraint(["node.labels.gpu==yes"], worker)).toBe("node.labels.gpu==yes");
    expect(unmetConstraint(["node.labels.gpu!=yes"], worker)).toBeUndefined();
    expect(unmetConstraint(["node.ip==10.0.4.0/24"], worker)).toBe("node.ip==10.0.4.0/24");
  });

  it("meets neither way a key Swarm does not know or a malformed address", () => {
    expect(unmetConstraint(["node.colour!=red"], worker)).toBe("node.colour!=red");
    expect(unmetConstraint(["node.ip!=not-an-address"], worker)).toBe("node.ip!=not-an-address");
  });
});
