/**
 * `ws(s)://<this origin>/<kind>/<workspace>/<name>`: the service serves its WebSockets (terminals,
 * language servers, live documents) on the page's own origin, so the session cookie and the Origin check apply.
 */
export function socketUrl(
  location: Pick<Location, "protocol" | "host">,
  kind: "terminal" | "lsp" | "collab",
  workspaceId: string,
  name: string,
): string {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/${kind}/${encodeURIComponent(workspaceId)}/${encodeURIComponent(name)}`;
}
