/** A Host header: a DNS name or IPv4 address, or a bracketed IPv6 address, and an optional port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * Whether the Host header names this service. A DNS-rebinding page reaches the service under the
 * attacker's name, so only the configured names pass; the port is not compared (a reverse proxy
 * may publish another one).
 */
export function hostAllowed(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  const match = host?.toLowerCase().match(HOST_HEADER);
  return match?.[1] !== undefined && allowed.has(match[1]);
}
