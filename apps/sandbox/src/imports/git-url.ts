import { allowListOpens, type EgressAllowEntry } from "../net/egress-allow-list";
import { ImportError } from "./import-error";

export interface CheckedGitUrl {
  url: string;
  host: string;
  /** Plain http, allowed only to an address the operator opened (a git server on their network). */
  plainHttp: boolean;
}

/**
 * Which repository URLs the service clones: https anywhere the egress network reaches, plain http
 * only to an IPv4 address (and port) listed in CODER_EGRESS_ALLOW, where the operator vouches for
 * the network path. Nothing else (no ssh, no file://, no credentials in the URL).
 */
export function checkGitUrl(text: string, allow: readonly EgressAllowEntry[]): CheckedGitUrl {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
    throw new ImportError("the URL must start with https://", "bad_request");
  if (url.username || url.password)
    throw new ImportError("put no name or token into the URL; use the token field", "bad_request");
  if (url.protocol === "http:") {
    const port = url.port ? Number(url.port) : 80;
    if (!allowListOpens(allow, url.hostname, port))
      throw new ImportError(
        "plain http is allowed only to an address opened in CODER_EGRESS_ALLOW; use https://",
        "bad_request",
      );
  }
  return { url: url.href, host: url.host, plainHttp: url.protocol === "http:" };
}
