import { BlockList, isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";
import { NON_PUBLIC_IPV4, NON_PUBLIC_IPV6 } from "../../net/non-public-ranges";

/**
 * Addresses webfetch must never reach: anything that is not the public internet. Checked for every
 * address a host name resolves to, on every redirect hop, and on the socket actually connected.
 */
const v4 = new BlockList();
for (const [net, bits] of NON_PUBLIC_IPV4) v4.addSubnet(net, bits, "ipv4");
const v6 = new BlockList();
for (const [net, bits] of NON_PUBLIC_IPV6) v6.addSubnet(net, bits, "ipv6");

/** The IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64, 6to4), if any. */
function embeddedV4(address: ipaddr.IPv6): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = address.parts;
  const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  // Mapped (::ffff:a.b.c.d) and the deprecated compatible form (::a.b.c.d); :: and ::1 are judged as IPv6.
  if (zeroPrefix && (g5 === 0xffff || (g5 === 0 && g6 !== 0))) return dotted(g6, g7);
  // NAT64's well-known prefix 64:ff9b::/96.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return dotted(g6, g7);
  // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
  if (g0 === 0x2002 && g1 !== undefined && g2 !== undefined) return dotted(g1, g2);
  return undefined;
}

/** Why `address` may not be fetched from, or undefined when it is a public address. */
export function blockedReason(address: string): string | undefined {
  const plain = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIPv4(plain)) return v4.check(plain, "ipv4") ? `${plain} is not a public address` : undefined;
  if (!isIPv6(plain)) return `${address} is not an IP address`;
  const inner = embeddedV4(ipaddr.IPv6.parse(plain));
  if (inner !== undefined && v4.check(inner, "ipv4")) return `${plain} is not a public address`;
  return v6.check(plain, "ipv6") ? `${plain} is not a public address` : undefined;
}

export type AddressPolicy = (address: string) => string | undefined;
