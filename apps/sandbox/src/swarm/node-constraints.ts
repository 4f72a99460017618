import { BlockList, isIP } from "node:net";

/** What of a Swarm node its placement constraints look at (the node's inspect, `GET /nodes/{id}`). */
export interface ConstrainedNode {
  ID: string;
  Spec?: { Role?: string; Labels?: Record<string, string> };
  Description?: {
    Hostname?: string;
    Platform?: { OS?: string; Architecture?: string };
    Engine?: { Labels?: Record<string, string> };
  };
  Status?: { Addr?: string };
}

const EXPRESSION = /^\s*([\w.-]+)\s*(==|!=)\s*(.+?)\s*$/;
const NODE_LABEL = "node.labels.";
const ENGINE_LABEL = "engine.labels.";

/**
 * The first of `constraints` the node does not meet, or undefined when it meets them all: Swarm's
 * own rules (as swarmkit's scheduler and the docker CLI apply them): keys case-insensitive, values
 * compared case-insensitively and whole, a missing label is the empty string, `node.ip` an address
 * or a subnet, an unknown key never met.
 */
export function unmetConstraint(constraints: readonly string[], node: ConstrainedNode): string | undefined {
  return constraints.find((constraint) => !meets(constraint, node));
}

function meets(constraint: string, node: ConstrainedNode): boolean {
  const parsed = EXPRESSION.exec(constraint);
  if (!parsed) return false;
  const [, rawKey = "", operator, expected = ""] = parsed;
  const key = rawKey.toLowerCase();
  let matches: boolean | undefined;
  if (key === "node.ip") matches = ipMatches(node.Status?.Addr ?? "", expected);
  else {
    const actual = nodeValue(key, rawKey, node);
    matches = actual === undefined ? undefined : actual.toLowerCase() === expected.toLowerCase();
  }
  // An unknown key or a malformed address is met neither way.
  return matches !== undefined && matches === (operator === "==");
}

/** The node's value for the key; undefined for a key Swarm does not know. */
function nodeValue(key: string, rawKey: string, node: ConstrainedNode): string | undefined {
  if (key === "node.id") return node.ID;
  if (key === "node.hostname") return node.Description?.Hostname ?? "";
  if (key === "node.role") return node.Spec?.Role ?? "";
  if (key === "node.platform.os") return node.Description?.Platform?.OS ?? "";
  if (key === "node.platform.arch") return node.Description?.Platform?.Architecture ?? "";
  // Label names keep their case.
  if (key.startsWith(NODE_LABEL) && key.length > NODE_LABEL.length)
    return node.Spec?.Labels?.[rawKey.slice(NODE_LABEL.length)] ?? "";
  if (key.startsWith(ENGINE_LABEL) && key.length > ENGINE_LABEL.length)
    return node.Description?.Engine?.Labels?.[rawKey.slice(ENGINE_LABEL.length)] ?? "";
  return undefined;
}

/** Whether the node's address is the one or in the subnet expected; undefined when that is malformed. */
function ipMatches(address: string, expected: string): boolean | undefined {
  const [network = "", prefix] = expected.split("/");
  const family = isIP(network);
  if (!family) return undefined;
  const type = family === 6 ? "ipv6" : "ipv4";
  const list = new BlockList();
  try {
    if (prefix === undefined) list.addAddress(network, type);
    else list.addSubnet(network, Number(prefix), type);
  } catch {
    return undefined;
  }
  return isIP(address) === family && list.check(address, type);
}
