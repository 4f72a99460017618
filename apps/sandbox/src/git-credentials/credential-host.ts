import { readCredentialHost } from "@coder/protocol";
import { ServiceError } from "../errors/service-error";

/**
 * The host of a URL as one comparable string: the lower-cased name (IPv6 in brackets, IDN as
 * punycode, as WHATWG URL parsing gives it) and the port unless it is the scheme's default.
 * Credentials match only when these strings are equal: never by substring, suffix or pattern, so
 * `example.test` is not `example.test.attacker.test`, nor the path of `attacker.test/example.test`.
 */
function canonicalHost(url: URL): string {
  return url.host;
}

/** A host as a person names it for a credential, in stored form (readCredentialHost), or a refusal. */
export function parseCredentialHost(text: string): string {
  const read = readCredentialHost(text);
  if ("problem" in read) throw new ServiceError("bad_request", read.problem);
  return read.host;
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
