import { ServiceError } from "../errors/service-error";

/** The longest host (`name[:port]`) a credential is stored for. */
export const MAX_CREDENTIAL_HOST_CHARS = 260;

/**
 * The host of a URL as one comparable string: the lower-cased name (IPv6 in brackets, IDN as
 * punycode, as WHATWG URL parsing gives it) and the port unless it is the scheme's default.
 * Credentials match only when these strings are equal: never by substring, suffix or pattern, so
 * `example.test` is not `example.test.attacker.test`, nor the path of `attacker.test/example.test`.
 */
function canonicalHost(url: URL): string {
  return url.host;
}

/**
 * A host as a person names it for a credential (`name[:port]`, as the remote URL has it),
 * parsed by the URL parser and refused unless it is only that: no scheme, user info, path,
 * query, fragment or wildcard.
 */
export function parseCredentialHost(text: string): string {
  const trimmed = text.trim();
  const refuse = (why: string) =>
    new ServiceError("bad_request", `"${trimmed.slice(0, 80)}" is not a host name[:port]: ${why}`);
  if (trimmed.length === 0 || trimmed.length > MAX_CREDENTIAL_HOST_CHARS) throw refuse("give a host");
  // The URL parser would take these as the end of the host, quietly dropping what follows.
  if (/[/\\?#@*\s]/.test(trimmed))
    throw refuse("only the host and its port, without a path, user or wildcard");
  if (!URL.canParse(`https://${trimmed}`)) throw refuse("the URL parser refuses it");
  const url = new URL(`https://${trimmed}`);
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) {
    throw refuse("only the host and its port");
  }
  return canonicalHost(url);
}

/** What git asks a credential helper for: the remote's protocol and host (and path, unused). */
export interface GitCredentialRequest {
  protocol: string;
  host: string;
  path?: string | undefined;
}

/**
 * The host git asks for, in the form credentials are stored under, with its protocol; undefined
 * when git's request names no host a credential could be for.
 */
export function hostOfGitRequest(
  request: GitCredentialRequest,
): { protocol: "http" | "https"; host: string } | undefined {
  if (request.protocol !== "https" && request.protocol !== "http") return undefined;
  if (/[/\\?#@*\s]/.test(request.host) || request.host.length === 0) return undefined;
  const text = `${request.protocol}://${request.host}`;
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.username || url.password || url.pathname !== "/") return undefined;
  return { protocol: request.protocol, host: canonicalHost(url) };
}
