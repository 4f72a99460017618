/** A socket in the LISTEN state as /proc/net/tcp{,6} shows it. */
export interface ListeningSocket {
  port: number;
  inode: string;
}

/** The kernel's TCP_LISTEN state, as /proc/net/tcp writes it. */
const LISTEN = "0A";

/**
 * Whether a local address (the kernel's hex, each 32-bit word in host order, little-endian here)
 * is one a process in this container reaches at 127.0.0.1: loopback (127/8, ::1,
 * ::ffff:127.0.0.0/104) or the wildcard (0.0.0.0, ::). A bind to another address is not reachable
 * there.
 */
export function reachableFromLoopback(hexAddress: string): boolean {
  const address = hexAddress.toUpperCase();
  if (/^0+$/.test(address)) return true;
  if (address.length === 8) return address.endsWith("7F");
  if (address.length === 32) {
    if (address === "00000000000000000000000001000000") return true;
    return address.startsWith("0000000000000000FFFF0000") && address.endsWith("7F");
  }
  return false;
}

/** The listening sockets of one /proc/net/tcp or tcp6 text that 127.0.0.1 reaches. */
export function parseListeningSockets(text: string): ListeningSocket[] {
  const sockets: ListeningSocket[] = [];
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    const [local, state, inode] = [fields[1], fields[3], fields[9]];
    if (!local || state !== LISTEN || !inode) continue;
    const [address, portHex] = local.split(":");
    const port = Number.parseInt(portHex ?? "", 16);
    if (!address || !Number.isInteger(port) || port < 1 || port > 65535) continue;
    if (reachableFromLoopback(address)) sockets.push({ port, inode });
  }
  return sockets;
}
