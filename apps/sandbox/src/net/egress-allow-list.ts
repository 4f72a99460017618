import { BlockList, isIPv4 } from "node:net";
import { z } from "zod";

/** One destination an operator opened for egress workspaces despite it being non-public. */
export interface EgressAllowEntry {
  /** Always in `a.b.c.d/n` form. */
  cidr: string;
  /** TCP and UDP to this port only; every port when absent. */
  port?: number;
}

const ENTRY = /^(?<address>[0-9.]+)(?:\/(?<bits>\d{1,2}))?(?::(?<port>\d{1,5}))?$/;
const EXAMPLE = "like 10.0.0.0/8, 192.168.1.5 or 192.168.1.5/32:443";

const entrySchema = z.string().transform((text, ctx): EgressAllowEntry => {
  const groups = ENTRY.exec(text)?.groups;
  const address = groups?.address ?? "";
  const bits = groups?.bits === undefined ? 32 : Number(groups.bits);
  const port = groups?.port === undefined ? undefined : Number(groups.port);
  let problem: string | undefined;
  if (!groups || !isIPv4(address)) problem = `"${text}" is not an IPv4 address or CIDR (${EXAMPLE})`;
  else if (bits > 32) problem = `"${text}" has a prefix length over 32`;
  else if (port !== undefined && (port < 1 || port > 65535)) problem = `"${text}" has a port outside 1-65535`;
  if (problem) {
    ctx.addIssue({ code: "custom", message: problem });
    return z.NEVER;
  }
  return port === undefined ? { cidr: `${address}/${bits}` } : { cidr: `${address}/${bits}`, port };
});

/**
 * CODER_EGRESS_ALLOW: comma-separated IPv4 CIDRs (a bare address means /32), each optionally
 * `:port`. IPv6 is not accepted: the egress network has none.
 */
export const egressAllowSchema = z
  .string()
  .transform((text) =>
    text
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(z.array(entrySchema));

/** Whether the operator's list opens `address` (IPv4) on TCP `port`. */
export function allowListOpens(entries: readonly EgressAllowEntry[], address: string, port: number): boolean {
  if (!isIPv4(address)) return false;
  return entries.some((entry) => {
    const [net = "", bits = "32"] = entry.cidr.split("/");
    const range = new BlockList();
    range.addSubnet(net, Number(bits), "ipv4");
    return range.check(address, "ipv4") && (entry.port === undefined || entry.port === port);
  });
}
