import { describe, expect, it } from "vitest";
import { firewallScript, type HostFacts } from "../docker/egress/firewall-rules";
import { egressNames } from "../docker/egress/names";
import { swarmChainCleanup, swarmEgressNames } from "./swarm-egress";

const gone = swarmEgressNames("old", "zchm03otkjnak6408sq0ryn91");
const kept = swarmEgressNames("live", "mojy4moeq4q2ab9ffjj1o2k3l");
const docker = egressNames("default");

/** A node with the chains and jumps of two swarm egress networks and of a Docker driver's. */
const facts: HostFacts & { backend: "nft" } = {
  backend: "nft",
  resolvers: [],
  interfaces: [docker.bridge],
  onLinkSubnets: [],
  rules: [gone, kept, docker].flatMap((n) => [
    `:${n.forwardChain} - [0:0]`,
    `:${n.inputChain} - [0:0]`,
    `-A DOCKER-USER -i ${n.bridge} -j ${n.forwardChain}`,
    `-A INPUT -i ${n.bridge} -j ${n.inputChain}`,
  ]),
};

describe("the egress chains of a swarm's nodes", () => {
  it("match the local bridge of the swarm network on every node and fit iptables' 28 characters", () => {
    expect(gone.bridge).toBe("br-zchm03otkjna");
    expect(gone.inputChain).toBe("CODER-EGRESS-zchm03otkjna-IN");
    expect(gone.inputChain.length).toBeLessThanOrEqual(28);
  });

  it("are removed once the swarm no longer has their network, and only then", () => {
    const script = firewallScript(facts, undefined, swarmChainCleanup(["mojy4moeq4q2ab9ffjj1o2k3l"]));
    expect(script).toContain(`iptables-nft -D DOCKER-USER -i ${gone.bridge} -j ${gone.forwardChain} || true`);
    expect(script).toContain(`iptables-nft -X ${gone.inputChain} || true`);
    expect(script).not.toContain(kept.forwardChain);
    expect(script).not.toContain(docker.forwardChain);
  });

  it("are left alone by the Docker driver's cleanup on the same machine, whose bridge they lack", () => {
    const script = firewallScript({ ...facts, interfaces: [] });
    expect(script).toContain(`-X ${docker.forwardChain}`);
    expect(script).not.toContain(gone.forwardChain);
    expect(script).not.toContain(kept.forwardChain);
  });
});
