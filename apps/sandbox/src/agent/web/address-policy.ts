import { BlockList, isIPv4, isIPv6 } from "node:net";
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
function embeddedV4(address: string): string | undefined {
  const lower = address.toLowerCase();
  const dotted = lower.match(/^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) return dotted[1];
  const groups = expandV6(lower);
  if (!groups) return undefined;
  const hexV4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) {
    if (g5 === 0 && g6 === 0) return undefined; // :: and ::1 are judged as IPv6
    return hexV4(g6, g7);
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return hexV4(g6, g7);
  if (g0 === 0x2002) return hexV4(g1, g2);
  return undefined;
}

function expandV6(address: string): number[] | undefined {
  if (address.includes(".")) return undefined;
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 0) return undefined;
  const groups = [...left, ...Array(tail === undefined ? 0 : missing).fill("0"), ...right].map((g) =>
    parseInt(g, 16),
  );
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** Why `address` may not be fetched from, or undefined when it is a public address. */
export function blockedReason(address: string): string | undefined {
  const plain = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIPv4(plain)) return v4.check(plain, "ipv4") ? `${plain} is not a public address` : undefined;
  if (!isIPv6(plain)) return `${address} is not an IP address`;
  const inner = embeddedV4(plain);
  if (inner !== undefined && v4.check(inner, "ipv4")) return `${plain} is not a public address`;
  return v6.check(plain, "ipv6") ? `${plain} is not a public address` : undefined;
}

export type AddressPolicy = (address: string) => string | undefined;
