/**
 * A base no request can name: parsing against it keeps every accepted target on one host, so the
 * result's path and query are all that is left of the request-target.
 */
const PLACEHOLDER_ORIGIN = "http://request-target.invalid";

/**
 * Origin-form (`/path?query`) and nothing else: one `/`, then anything but a second `/` or a `\`
 * (URL parsers read `//host`, `/\host` and `\\host` as a new authority), no absolute-form
 * (`http://host/...`) or asterisk-form, and no whitespace or control character (URL parsers drop
 * tabs and newlines, which would turn `/\t/host` into `//host`).
 */
const ORIGIN_FORM = /^\/(?![/\\])[!-~\u0080-\uffff]*$/;

/**
 * An origin-form request-target as a URL on a placeholder origin: read only its `pathname` and
 * `search` (normalised, dot segments resolved, so the routing, the auth decision and the upstream
 * request all see the same path). `undefined` for any other form.
 */
export function parseRequestTarget(raw: string | undefined): URL | undefined {
  if (raw === undefined || !ORIGIN_FORM.test(raw)) return undefined;
  const url = new URL(raw, PLACEHOLDER_ORIGIN);
  // Cannot happen for the shape above; kept so a parser change can never move the host.
  if (url.origin !== PLACEHOLDER_ORIGIN) return undefined;
  return url;
}

/**
 * An origin-form target a URL parser would leave exactly as it is: unreserved and sub-delimiter
 * characters, `:`, `@`, `/` and `?` only (no `%` escape, no `'`, which a query gets escaped, no
 * `#`), no dot segment, not ending in an empty query.
 */
const PLAIN_TARGET = /^\/(?![/\\])[A-Za-z0-9\-._~!$&()*+,;=:@/?]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;

/**
 * `${pathname}${search}` of `parseRequestTarget(raw)` without building a URL, for the common target
 * that no parser changes (the preview proxy reads one per request); `undefined` for any other
 * (parse those).
 */
export function plainRequestTarget(raw: string | undefined): string | undefined {
  if (raw === undefined || !PLAIN_TARGET.test(raw) || raw.endsWith("?")) return undefined;
  const query = raw.indexOf("?");
  const path = query < 0 ? raw : raw.slice(0, query);
  return DOT_SEGMENT.test(path) ? undefined : raw;
}
