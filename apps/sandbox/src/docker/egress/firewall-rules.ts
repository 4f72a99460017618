import { isIPv4 } from "node:net";
import type { EgressAllowEntry } from "../../net/egress-allow-list";
import { NON_PUBLIC_IPV4 } from "../../net/non-public-ranges";
import { BRIDGE_PREFIX, CHAIN_PREFIX, type EgressNames } from "./names";

/**
 * Run on the host's network by the firewall helper: which iptables backend holds Docker's
 * DOCKER-USER chain (nft first: probing legacy would load its tables on an nft host), the egress
 * rules already there, the resolvers Docker forwards DNS to, the host's interfaces and its on-link
 * routes. Reads only; every line it prints starts with "@".
 */
export const PROBE_SCRIPT = `
for b in nft legacy; do
  if iptables-$b-save 2>/dev/null | grep -q '^:DOCKER-USER '; then
    echo "@backend $b"
    iptables-$b-save -t filter 2>/dev/null | grep -e '${CHAIN_PREFIX}' | sed 's/^/@rule /'
    break
  fi
done
sed -n 's/^[[:space:]]*nameserver[[:space:]]\\{1,\\}\\([^[:space:]]*\\).*/@resolver \\1/p' /etc/resolv.conf
for i in /sys/class/net/*; do echo "@interface \${i##*/}"; done
awk 'NR > 1 { print "@route", $1, $2, $3, $8 }' /proc/net/route
`;

/** What the probe found on the host. */
export interface HostFacts {
  backend?: "nft" | "legacy";
  /** IPv4 resolvers of the host: Docker's embedded DNS forwards to them from the workspace's address. */
  resolvers: string[];
  interfaces: string[];
  /** Subnets the host reaches without a gateway: its LANs and Docker's bridges. */
  onLinkSubnets: string[];
  /** Chains and rules of egress networks already in the filter table (iptables-save lines). */
  rules: string[];
}

/** `0100A8C0` (little-endian hex from /proc/net/route) → `192.168.0.1`. */
function routeAddress(hex: string): string {
  const bytes = hex.match(/../g) ?? [];
  return bytes
    .reverse()
    .map((b) => Number.parseInt(b, 16))
    .join(".");
}

function prefixLength(maskHex: string): number {
  let bits = 0;
  for (let n = Number.parseInt(maskHex, 16); n; n >>>= 1) bits += n & 1;
  return bits;
}

export function parseHostFacts(output: string): HostFacts {
  const facts: HostFacts = { resolvers: [], interfaces: [], onLinkSubnets: [], rules: [] };
  for (const raw of output.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const space = line.indexOf(" ");
    const [tag, rest] = space < 0 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)];
    if (tag === "@backend" && (rest === "nft" || rest === "legacy")) facts.backend = rest;
    else if (tag === "@rule") facts.rules.push(rest);
    else if (tag === "@resolver" && isIPv4(rest) && !rest.startsWith("127.")) facts.resolvers.push(rest);
    else if (tag === "@interface" && rest) facts.interfaces.push(rest);
    else if (tag === "@route") {
      const [iface, dest, gateway, mask] = rest.split(" ");
      const hex = /^[0-9A-Fa-f]{8}$/;
      if (!iface || iface === "lo" || !dest || !gateway || !mask) continue;
      if (!hex.test(dest) || !hex.test(mask) || gateway !== "00000000" || mask === "00000000") continue;
      const cidr = `${routeAddress(dest)}/${prefixLength(mask)}`;
      if (!facts.onLinkSubnets.includes(cidr)) facts.onLinkSubnets.push(cidr);
    }
  }
  return facts;
}

const REJECT = "-j REJECT --reject-with icmp-admin-prohibited";

/**
 * The shape of one kind of egress network's bridge and chains: `<bridgePrefix><tag>` and
 * `CODER-EGRESS-<tag>[-IN]`, `tag` a regular expression. The cleanup touches only its own shape, so
 * the Docker driver's networks and the Swarm driver's never remove each other's chains.
 */
export interface ChainShape {
  bridgePrefix: string;
  tag: string;
}

/** The Docker driver's: `coder-eg-<6 hex of the instance>`. */
export const DOCKER_CHAIN_SHAPE: ChainShape = { bridgePrefix: BRIDGE_PREFIX, tag: "[0-9a-f]{6}" };

/** Which chains of a shape the script keeps: their network is still there. */
export interface ChainCleanup {
  shape: ChainShape;
  alive(tag: string): boolean;
}

/** The Docker driver's networks are alive while their bridge is on the host. */
function bridgesAlive(facts: HostFacts): ChainCleanup {
  const alive = new Set(
    facts.interfaces.filter((i) => i.startsWith(BRIDGE_PREFIX)).map((i) => i.slice(BRIDGE_PREFIX.length)),
  );
  return { shape: DOCKER_CHAIN_SHAPE, alive: (tag) => alive.has(tag) };
}

/** Matches of an allowed destination, one per protocol when a port is given. */
function allowMatches(entry: EgressAllowEntry): string[] {
  if (entry.port === undefined) return [`-d ${entry.cidr}`];
  return ["tcp", "udp"].map((p) => `-d ${entry.cidr} -p ${p} --dport ${entry.port}`);
}

function resolverMatches(resolver: string): string[] {
  return ["udp", "tcp"].map((p) => `-d ${resolver}/32 -p ${p} --dport 53`);
}

/**
 * The rules of one egress network, in iptables-restore form (with --noflush, declaring a chain
 * empties it, so applying them again replaces the old set in one transaction).
 *
 * Forward chain, for packets a workspace sends through the host: never to another workspace; then
 * the operator's allow list and the resolvers Docker's DNS forwards to; then nothing that is not the
 * public internet nor any subnet the host is on. Input chain, for packets to the host itself (the
 * gateway, every interface address): only replies, allowed destinations and DNS.
 */
export function egressRuleSet(
  names: EgressNames,
  allow: readonly EgressAllowEntry[],
  facts: Pick<HostFacts, "resolvers" | "onLinkSubnets">,
): string {
  const fwd = (rule: string) => `-A ${names.forwardChain} ${rule}`;
  const input = (rule: string) => `-A ${names.inputChain} ${rule}`;
  const opened = [...allow.flatMap(allowMatches), ...facts.resolvers.flatMap(resolverMatches)];
  const closed = new Set([...NON_PUBLIC_IPV4.map(([net, bits]) => `${net}/${bits}`), ...facts.onLinkSubnets]);
  return [
    "*filter",
    `:${names.forwardChain} - [0:0]`,
    `:${names.inputChain} - [0:0]`,
    fwd(`-o ${names.bridge} ${REJECT}`),
    ...opened.map((m) => fwd(`${m} -j ACCEPT`)),
    ...[...closed].map((cidr) => fwd(`-d ${cidr} ${REJECT}`)),
    input("-m conntrack --ctstate RELATED,ESTABLISHED -j RETURN"),
    ...opened.map((m) => input(`${m} -j RETURN`)),
    input(REJECT),
    "COMMIT",
    "",
  ].join("\n");
}

/** The jumps that send a network's traffic into its chains. */
function jumps(names: EgressNames): string[] {
  return [
    `DOCKER-USER -i ${names.bridge} -j ${names.forwardChain}`,
    `INPUT -i ${names.bridge} -j ${names.inputChain}`,
  ];
}

/**
 * The shell script the firewall helper runs: removes the chains of egress networks that are gone
 * (`cleanup`; by default the Docker driver's whose bridge is gone), only chains and jumps of that
 * shape, nothing else; then, for `target`, replaces its rules and adds each jump that is missing
 * (once, at the top of its chain).
 */
export function firewallScript(
  facts: HostFacts & Required<Pick<HostFacts, "backend">>,
  target?: { names: EgressNames; allow: readonly EgressAllowEntry[] },
  cleanup: ChainCleanup = bridgesAlive(facts),
): string {
  const ipt = `iptables-${facts.backend}`;
  const { bridgePrefix, tag } = cleanup.shape;
  const ourChain = new RegExp(`^:(${CHAIN_PREFIX}(${tag})(?:-IN)?) `);
  const ourJump = new RegExp(
    `^-A (?:DOCKER-USER|INPUT) -i ${bridgePrefix}(${tag}) -j ${CHAIN_PREFIX}(${tag})(?:-IN)?$`,
  );
  const keep = (t: string) => cleanup.alive(t) || target?.names.bridge === `${bridgePrefix}${t}`;
  const lines = ["set -e"];
  for (const rule of facts.rules) {
    const m = ourJump.exec(rule);
    if (m?.[1] && m[1] === m[2] && !keep(m[1])) lines.push(`${ipt} ${rule.replace(/^-A/, "-D")} || true`);
  }
  for (const rule of facts.rules) {
    const m = ourChain.exec(rule);
    if (m?.[1] && m[2] && !keep(m[2])) lines.push(`${ipt} -F ${m[1]} || true`, `${ipt} -X ${m[1]} || true`);
  }
  if (target) {
    lines.push(
      `${ipt}-restore --noflush <<'RULES'`,
      egressRuleSet(target.names, target.allow, facts).trimEnd(),
      "RULES",
    );
    for (const jump of jumps(target.names)) {
      const present = facts.rules.filter((r) => r === `-A ${jump}`).length;
      if (present === 0) lines.push(`${ipt} -I ${jump}`);
      for (let extra = 1; extra < present; extra++) lines.push(`${ipt} -D ${jump}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
