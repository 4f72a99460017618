import type Docker from "dockerode";
import type { ContainerCreateOptions } from "dockerode";
import { LABEL_INSTANCE, LABEL_MANAGED } from "../docker/container-spec";
import { type EgressSettings, EgressUnavailableError } from "../docker/egress/egress-network";
import { LABEL_ROLE, runFirewallHelper } from "../docker/egress/firewall-helper";
import {
  type ChainCleanup,
  type ChainShape,
  firewallScript,
  PROBE_SCRIPT,
  parseHostFacts,
} from "../docker/egress/firewall-rules";
import { CHAIN_PREFIX, type EgressNames } from "../docker/egress/names";
import { statusCode } from "../docker/engine-errors";

/**
 * A swarm-scoped bridge network's bridge on each node is `br-` and the first 12 characters of the
 * network's id (lower-case letters and digits): the rules match it, as the Docker driver's match its
 * fixed bridge name.
 */
const SWARM_CHAIN_SHAPE: ChainShape = { bridgePrefix: "br-", tag: "[0-9a-z]{12}" };

/** The swarm egress networks still there are those whose id the swarm still lists (of any instance). */
export function swarmChainCleanup(networkIds: readonly string[]): ChainCleanup {
  const alive = new Set(networkIds.map((id) => id.slice(0, 12)));
  return { shape: SWARM_CHAIN_SHAPE, alive: (tag) => alive.has(tag) };
}

export function swarmEgressNetworkName(instance: string): string {
  return `coder-swarm-egress-${instance}`;
}

/** The bridge and chains of the swarm egress network with this id, on every node. */
export function swarmEgressNames(instance: string, networkId: string): EgressNames {
  const tag = networkId.slice(0, 12);
  return {
    network: swarmEgressNetworkName(instance),
    bridge: `${SWARM_CHAIN_SHAPE.bridgePrefix}${tag}`,
    forwardChain: `${CHAIN_PREFIX}${tag}`,
    inputChain: `${CHAIN_PREFIX}${tag}-IN`,
  };
}

/**
 * The network egress workspaces of one instance share on a swarm (docs/architecture.md "Workspaces
 * on a swarm"): a bridge network of swarm scope, so each node that runs one of them has a local
 * bridge of its own with the same name, and the traffic of those tasks leaves the node through that
 * bridge alone. Its rules are the Docker driver's (docker/egress/firewall-rules.ts), set on each
 * node by a firewall helper container run through that node's engine.
 */
export class SwarmEgress {
  private readonly applying = new Map<Docker, Promise<void>>();
  private making: Promise<string> | undefined;

  constructor(
    private readonly manager: Docker,
    private readonly instance: string,
    private readonly settings: EgressSettings,
  ) {}

  /** The network's id, made when missing; concurrent callers share one run (two would make two networks). */
  network(): Promise<string> {
    this.making ??= this.make().finally(() => {
      this.making = undefined;
    });
    return this.making;
  }

  private async make(): Promise<string> {
    const existing = await this.existing();
    if (existing) return existing;
    try {
      const made = await this.manager.createNetwork({
        Name: swarmEgressNetworkName(this.instance),
        Driver: "bridge",
        Scope: "swarm",
        CheckDuplicate: true,
        // Jobs on a workspace's files (a git clone) are plain containers on its node.
        Attachable: true,
        EnableIPv6: false,
        Labels: { [LABEL_MANAGED]: "true", [LABEL_INSTANCE]: this.instance, [LABEL_ROLE]: "egress" },
      });
      return made.id;
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
    }
    const id = await this.existing();
    if (!id) throw new EgressUnavailableError("its network was removed while it was being made");
    return id;
  }

  /** The network's id when it exists (on a swarm network: the manager's answer). */
  async existing(): Promise<string | undefined> {
    try {
      const info = (await this.manager.getNetwork(swarmEgressNetworkName(this.instance)).inspect()) as {
        Id: string;
        Scope?: string;
        Driver?: string;
      };
      if (info.Scope !== "swarm" || info.Driver !== "bridge")
        throw new EgressUnavailableError(
          `the network ${swarmEgressNetworkName(this.instance)} exists as a ${info.Driver} network of ${info.Scope} scope; remove it`,
        );
      return info.Id;
    } catch (err) {
      if (statusCode(err) === 404) return undefined;
      throw err;
    }
  }

  /**
   * Rewrites the network's rules on the node of `engine` (rules lost to a flush or a reboot come
   * back) and removes those of swarm egress networks that are gone. Call before a task joins the
   * network there; concurrent callers for one node share one run.
   */
  ensureOn(engine: Docker): Promise<void> {
    let run = this.applying.get(engine);
    if (!run) {
      run = this.apply(engine).finally(() => this.applying.delete(engine));
      this.applying.set(engine, run);
    }
    return run;
  }

  /** A job container's options (a git clone beside a workspace) on the egress network of `engine`'s node. */
  async joinJob(engine: Docker, options: ContainerCreateOptions): Promise<ContainerCreateOptions> {
    await this.ensureOn(engine);
    return {
      ...options,
      HostConfig: { ...options.HostConfig, NetworkMode: swarmEgressNetworkName(this.instance) },
    };
  }

  private async apply(engine: Docker): Promise<void> {
    try {
      const id = await this.network();
      await this.firewall(engine, { names: swarmEgressNames(this.instance, id), allow: this.settings.allow });
    } catch (err) {
      if (err instanceof EgressUnavailableError) throw err;
      throw new EgressUnavailableError((err as Error).message);
    }
  }

  /** Removes the network (its tasks must be gone), then its chains on the nodes of `engines`. */
  async remove(engines: Iterable<Docker>): Promise<void> {
    try {
      await this.manager.getNetwork(swarmEgressNetworkName(this.instance)).remove();
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
    for (const engine of engines) await this.firewall(engine);
  }

  /** Probes the node, then removes the chains of networks the swarm no longer has and sets `target`'s. */
  private async firewall(engine: Docker, target?: Parameters<typeof firewallScript>[1]): Promise<void> {
    const run = (script: string) =>
      runFirewallHelper(engine, this.instance, this.settings.helperImage, script);
    const facts = parseHostFacts(await run(PROBE_SCRIPT));
    if (!facts.backend) {
      if (!target) return;
      throw new EgressUnavailableError(
        "the node's DOCKER-USER iptables chain was not found (egress needs Docker's iptables integration)",
      );
    }
    // Every network of the swarm, of any instance: only the chains of one that is gone are removed.
    const cleanup = swarmChainCleanup((await this.manager.listNetworks()).map((n) => n.Id));
    await run(firewallScript({ ...facts, backend: facts.backend }, target, cleanup));
  }
}
