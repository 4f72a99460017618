import { createHash } from "node:crypto";

/** What the egress network of one service instance is called on the engine and in the firewall. */
export interface EgressNames {
  /** The Docker network (readable in `docker network ls`). */
  network: string;
  /** Its Linux bridge: fixed, so the firewall rules can match it; at most 15 characters (IFNAMSIZ). */
  bridge: string;
  /** Filter chain for traffic the workspaces send through the host (jumped to from DOCKER-USER). */
  forwardChain: string;
  /** Filter chain for traffic the workspaces send to the host itself (jumped to from INPUT). */
  inputChain: string;
}

/** Docker's default network: where egress workspaces of older versions were attached. */
export const DEFAULT_BRIDGE = "bridge";

export const BRIDGE_PREFIX = "coder-eg-";
export const CHAIN_PREFIX = "CODER-EGRESS-";

export function egressNames(instance: string): EgressNames {
  // Instance names can be 32 characters long; the bridge name has room for 6 of them.
  const tag = createHash("sha256").update(instance).digest("hex").slice(0, 6);
  return {
    network: `coder-egress-${instance}`,
    bridge: `${BRIDGE_PREFIX}${tag}`,
    forwardChain: `${CHAIN_PREFIX}${tag}`,
    inputChain: `${CHAIN_PREFIX}${tag}-IN`,
  };
}

/**
 * The HostConfig fields of a container that joins the egress network (after EgressNetwork.ensure).
 * IPv6 is switched off inside: the network has none, and link-local IPv6 would otherwise reach the
 * other containers on the bridge past the IPv4-only isolation rules.
 */
export function egressHostConfig(instance: string): { NetworkMode: string; Sysctls: Record<string, string> } {
  return { NetworkMode: egressNames(instance).network, Sysctls: { "net.ipv6.conf.all.disable_ipv6": "1" } };
}

/** Whether a container on these networks has egress (on this instance's network, or an older version's). */
export function hasEgress(instance: string, networks: readonly string[]): boolean {
  return networks.includes(egressNames(instance).network) || networks.includes(DEFAULT_BRIDGE);
}
