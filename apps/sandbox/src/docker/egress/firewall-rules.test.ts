import { describe, expect, it } from "vitest";
import { egressRuleSet, firewallScript, type HostFacts, parseHostFacts } from "./firewall-rules";
import { egressNames } from "./names";

const names = egressNames("default");
const tag = names.bridge.slice("coder-eg-".length);

/** What the probe prints on a host with one dead egress network (tag 0ddbad) and a foreign rule. */
const probeOutput = [
  "@backend nft",
  "@rule :CODER-EGRESS-0ddbad - [0:0]",
  "@rule :CODER-EGRESS-0ddbad-IN - [0:0]",
  "@rule -A DOCKER-USER -i coder-eg-0ddbad -j CODER-EGRESS-0ddbad",
  "@rule -A INPUT -i coder-eg-0ddbad -j CODER-EGRESS-0ddbad-IN",
  "@rule -A CODER-EGRESS-0ddbad -d 10.0.0.0/8 -j REJECT --reject-with icmp-admin-prohibited",
  "@rule -A DOCKER-USER -s 10.0.0.0/8 -j CODER-EGRESS-LOG",
  "@resolver 10.255.255.53",
  "@resolver 127.0.0.53",
  "@resolver fd00::53",
  `@interface ${names.bridge}`,
  "@interface docker0\r",
  "@interface eth0",
  "@route eth0 00000000 010200C0 00000000",
  "@route docker0 000011AC 00000000 0000FFFF",
  "@route eth0 0000A8C0 00000000 00FFFFFF",
  "@route eth0 000A000A 010200C0 00FFFFFF",
  "# Warning: iptables-legacy tables present",
  "",
].join("\n");

describe("the egress firewall's view of the host", () => {
  it("reads the backend, the IPv4 resolvers Docker's DNS forwards to, interfaces and on-link subnets", () => {
    const facts = parseHostFacts(probeOutput);
    expect(facts.backend).toBe("nft");
    expect(facts.resolvers).toEqual(["10.255.255.53"]);
    expect(facts.interfaces).toEqual([names.bridge, "docker0", "eth0"]);
    // The default route and a route through a gateway are not on-link subnets.
    expect(facts.onLinkSubnets).toEqual(["172.17.0.0/16", "192.168.0.0/24"]);
    expect(facts.rules).toHaveLength(6);
  });

  it("has no backend when no iptables variant holds DOCKER-USER", () => {
    expect(parseHostFacts("@resolver 1.1.1.1\n").backend).toBeUndefined();
  });
});

describe("the egress rules", () => {
  const facts = { resolvers: ["10.255.255.53"], onLinkSubnets: ["203.0.113.0/24", "10.0.0.0/8"] };
  const rules = egressRuleSet(names, [{ cidr: "10.1.2.0/24", port: 3000 }, { cidr: "192.168.5.5/32" }], facts)
    .trim()
    .split("\n");
  const forward = rules.filter((r) => r.startsWith(`-A ${names.forwardChain} `));
  const input = rules.filter((r) => r.startsWith(`-A ${names.inputChain} `));
  const index = (list: string[], part: string) => list.findIndex((r) => r.includes(part));

  it("declare both chains in one filter-table transaction, which empties them first", () => {
    expect(rules.slice(0, 3)).toEqual([
      "*filter",
      `:${names.forwardChain} - [0:0]`,
      `:${names.inputChain} - [0:0]`,
    ]);
    expect(rules.at(-1)).toBe("COMMIT");
  });

  it("reject traffic to another workspace before anything is allowed", () => {
    expect(forward[0]).toBe(
      `-A ${names.forwardChain} -o ${names.bridge} -j REJECT --reject-with icmp-admin-prohibited`,
    );
  });

  it("let the allow list and DNS to the host's resolvers through, ahead of the private ranges", () => {
    const private10 = index(forward, "-d 10.0.0.0/8 -j REJECT");
    for (const allowed of [
      "-d 10.1.2.0/24 -p tcp --dport 3000 -j ACCEPT",
      "-d 10.1.2.0/24 -p udp --dport 3000 -j ACCEPT",
      "-d 192.168.5.5/32 -j ACCEPT",
      "-d 10.255.255.53/32 -p udp --dport 53 -j ACCEPT",
      "-d 10.255.255.53/32 -p tcp --dport 53 -j ACCEPT",
    ]) {
      expect(index(forward, allowed)).toBeGreaterThan(0);
      expect(index(forward, allowed)).toBeLessThan(private10);
    }
  });

  it("reject every non-public range and the host's own subnets, each once", () => {
    for (const cidr of [
      "10.0.0.0/8",
      "172.16.0.0/12",
      "192.168.0.0/16",
      "100.64.0.0/10",
      "169.254.0.0/16",
      "127.0.0.0/8",
      "224.0.0.0/4",
      "240.0.0.0/4",
      "203.0.113.0/24",
    ]) {
      expect(forward.filter((r) => r.includes(`-d ${cidr} -j REJECT`))).toHaveLength(1);
    }
  });

  it("let only replies, the allow list and DNS reach the host itself", () => {
    expect(input[0]).toContain("--ctstate RELATED,ESTABLISHED -j RETURN");
    expect(index(input, "-d 10.1.2.0/24 -p tcp --dport 3000 -j RETURN")).toBeGreaterThan(0);
    expect(index(input, "-d 10.255.255.53/32 -p udp --dport 53 -j RETURN")).toBeGreaterThan(0);
    expect(input.at(-1)).toBe(`-A ${names.inputChain} -j REJECT --reject-with icmp-admin-prohibited`);
  });
});

describe("the firewall helper's script", () => {
  const facts = { ...parseHostFacts(probeOutput), backend: "nft" as const };
  const target = { names, allow: [] };

  it("removes the chains and jumps of an egress network that is gone, and nothing else", () => {
    const script = firewallScript(facts);
    expect(script).toContain("iptables-nft -D DOCKER-USER -i coder-eg-0ddbad -j CODER-EGRESS-0ddbad || true");
    expect(script).toContain("iptables-nft -D INPUT -i coder-eg-0ddbad -j CODER-EGRESS-0ddbad-IN || true");
    expect(script).toContain("iptables-nft -X CODER-EGRESS-0ddbad || true");
    expect(script).toContain("iptables-nft -X CODER-EGRESS-0ddbad-IN || true");
    expect(script).not.toContain("CODER-EGRESS-LOG");
    expect(script).not.toContain(tag);
    expect(script).not.toContain("restore");
  });

  it("replaces this network's rules and adds each jump once, at the top", () => {
    const script = firewallScript(facts, target);
    expect(script).toMatch(/iptables-nft-restore --noflush <<'RULES'\n\*filter\n[\s\S]*\nCOMMIT\nRULES\n/);
    expect(script).toContain(`iptables-nft -I DOCKER-USER -i ${names.bridge} -j ${names.forwardChain}\n`);
    expect(script).toContain(`iptables-nft -I INPUT -i ${names.bridge} -j ${names.inputChain}\n`);
    expect(script.indexOf("restore")).toBeLessThan(script.indexOf(" -I DOCKER-USER"));
  });

  it("leaves jumps that are there alone and drops duplicates", () => {
    const jump = `-A DOCKER-USER -i ${names.bridge} -j ${names.forwardChain}`;
    const input = `-A INPUT -i ${names.bridge} -j ${names.inputChain}`;
    const withJumps: HostFacts & { backend: "legacy" } = {
      ...facts,
      backend: "legacy",
      rules: [`:${names.forwardChain} - [0:0]`, `:${names.inputChain} - [0:0]`, jump, jump, input],
    };
    const script = firewallScript(withJumps, target);
    expect(script).not.toContain(" -I ");
    expect(script.match(/ -D /g)).toHaveLength(1);
    expect(script).toContain(`iptables-legacy -D DOCKER-USER -i ${names.bridge} -j ${names.forwardChain}\n`);
    expect(script).not.toContain(`-F ${names.forwardChain}`);
  });
});
