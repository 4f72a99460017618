import type Docker from "dockerode";
import { NamedError } from "../../errors/named-error";
import type { EgressAllowEntry } from "../../net/egress-allow-list";
import { LABEL_INSTANCE, LABEL_MANAGED } from "../container-spec";
import { statusCode } from "../engine-errors";
import { LABEL_ROLE, runFirewallHelper } from "./firewall-helper";
import { firewallScript, type HostFacts, PROBE_SCRIPT, parseHostFacts } from "./firewall-rules";
import { DEFAULT_BRIDGE, type EgressNames, egressNames } from "./names";

/** Egress cannot be given safely (no firewall, a foreign network in the way): nothing joins. */
export class EgressUnavailableError extends NamedError {
  constructor(reason: string) {
    super(`egress is unavailable: ${reason}`);
  }
}

export interface EgressSettings {
  /** The image the firewall helper runs: it needs sh, awk and iptables (the workspace image has them). */
  helperImage: string;
  allow: readonly EgressAllowEntry[];
}

/**
 * The network egress workspaces share, one per service instance: a bridge on which containers
 * cannot talk to each other (inter-container communication off), whose traffic to the host, to
 * non-public ranges and to the host's subnets is rejected by iptables rules that a short-lived
 * helper container sets on the host (host network, NET_ADMIN) — so all of it works through the
 * Docker API alone, from a service in a container too.
 */
export class EgressNetwork {
  readonly names: EgressNames;
  private applying: Promise<void> | undefined;

  constructor(
    private readonly docker: Docker,
    private readonly instance: string,
    private readonly settings: EgressSettings,
  ) {
    this.names = egressNames(instance);
  }

  /**
   * Creates the network when missing and rewrites its firewall rules (so rules lost to a flush
   * come back). Call before creating or starting a container that joins it; concurrent callers
   * share one run.
   */
  ensure(): Promise<void> {
    this.applying ??= this.apply().finally(() => {
      this.applying = undefined;
    });
    return this.applying;
  }

  /** Puts a container on the egress network, moving it off Docker's default bridge if it was there. */
  async join(containerId: string, networks: readonly string[]): Promise<void> {
    await this.ensure();
    if (networks.includes(DEFAULT_BRIDGE)) {
      await this.docker.getNetwork(DEFAULT_BRIDGE).disconnect({ Container: containerId, Force: true });
    }
    if (!networks.includes(this.names.network)) {
      await this.docker.getNetwork(this.names.network).connect({ Container: containerId });
    }
  }

  /** Removes the network (its containers must be gone) and the rules of every removed egress network. */
  async remove(): Promise<void> {
    try {
      await this.docker.getNetwork(this.names.network).remove();
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
    const facts = parseHostFacts(await this.runHelper(PROBE_SCRIPT));
    if (facts.backend) await this.runHelper(firewallScript({ ...facts, backend: facts.backend }));
  }

  private async apply(): Promise<void> {
    try {
      await this.createNetwork();
      const facts: HostFacts = parseHostFacts(await this.runHelper(PROBE_SCRIPT));
      if (!facts.backend) {
        throw new EgressUnavailableError(
          "the engine's DOCKER-USER iptables chain was not found (egress needs Docker's iptables integration)",
        );
      }
      const target = { names: this.names, allow: this.settings.allow };
      await this.runHelper(firewallScript({ ...facts, backend: facts.backend }, target));
    } catch (err) {
      if (err instanceof EgressUnavailableError) throw err;
      throw new EgressUnavailableError((err as Error).message);
    }
  }

  private async createNetwork(): Promise<void> {
    const { network, bridge } = this.names;
    const options = {
      "com.docker.network.bridge.name": bridge,
      "com.docker.network.bridge.enable_icc": "false",
      "com.docker.network.bridge.enable_ip_masquerade": "true",
    };
    try {
      await this.docker.createNetwork({
        Name: network,
        Driver: "bridge",
        CheckDuplicate: true,
        EnableIPv6: false,
        Options: options,
        Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: this.instance, [LABEL_ROLE]: "egress" },
      });
      return;
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
    }
    const info = (await this.docker.getNetwork(network).inspect()) as {
      Driver?: string;
      Options?: Record<string, string>;
    };
    const same =
      info.Driver === "bridge" && Object.entries(options).every(([k, v]) => info.Options?.[k] === v);
    if (!same) {
      throw new EgressUnavailableError(
        `the network ${network} exists with other settings; remove it (docker network rm ${network})`,
      );
    }
  }

  private runHelper(script: string): Promise<string> {
    return runFirewallHelper(this.docker, this.instance, this.settings.helperImage, script);
  }
}

/** Removes an instance's egress network, when it has one, and the rules of every removed egress network. */
export async function removeEgressNetwork(
  docker: Docker,
  instance: string,
  helperImage: string,
): Promise<void> {
  const made = await docker
    .getNetwork(egressNames(instance).network)
    .inspect()
    .then(
      () => true,
      () => false,
    );
  if (made) await new EgressNetwork(docker, instance, { helperImage, allow: [] }).remove();
}
