/** The longest host (`name[:port]`) a git credential is stored for. */
export const MAX_CREDENTIAL_HOST_CHARS = 260;

/**
 * A host as a person names it for a git credential (`name[:port]`, as the remote URL has it),
 * parsed by the WHATWG URL parser into the form credentials are compared in (lower-cased name,
 * IPv6 in brackets, IDN as punycode, the port unless it is https's default); or why it is no such
 * host: no scheme, user info, path, query, fragment or wildcard. The service stores and matches by
 * this; the tokens page checks with it before sending.
 */
export function readCredentialHost(text: string): { host: string } | { problem: string } {
  const trimmed = text.trim();
  const refuse = (why: string) => ({
    problem: `"${trimmed.slice(0, 80)}" is not a host name[:port]: ${why}`,
  });
  if (trimmed.length === 0 || trimmed.length > MAX_CREDENTIAL_HOST_CHARS) return refuse("give a host");
  // The URL parser would take these as the end of the host, quietly dropping what follows.
  if (/[/\\?#@*\s]/.test(trimmed))
    return refuse("only the host and its port, without a path, user or wildcard");
  if (!URL.canParse(`https://${trimmed}`)) return refuse("the URL parser refuses it");
  const url = new URL(`https://${trimmed}`);
  if (url.username || url.password || url.pathname !== "/" || url.search || url.hash) {
    return refuse("only the host and its port");
  }
  return { host: url.host };
}
