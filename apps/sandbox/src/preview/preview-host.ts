import { workspaceId as workspaceIdSchema } from "@coder/protocol";

/** The port and workspace a preview host names. */
export interface PreviewTarget {
  workspaceId: string;
  port: number;
}

/** A Host header's name part (lowercased) and its optional port, as host-check.ts reads it. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/;
/** `<port>-<workspace id>`: a port without leading zeros, then an id as the service makes them. */
const LABEL = /^([1-9]\d{0,4})-([a-z0-9]{12,32})$/;

/**
 * What a Host header is to the preview proxy: a preview origin (`<port>-<workspace>.<domain>`,
 * matched exactly), `misdirected` (a name under the preview domain that is not exactly one: the
 * service answers 421), or `null` (not under the preview domain: the IDE's own host check decides).
 */
export function previewHostOf(
  host: string | undefined,
  domain: string,
): PreviewTarget | "misdirected" | null {
  const name = host?.toLowerCase().match(HOST_HEADER)?.[1];
  if (!name?.endsWith(`.${domain}`)) return null;
  const match = LABEL.exec(name.slice(0, -domain.length - 1));
  const port = Number(match?.[1]);
  const id = match?.[2];
  if (!id || port > 65535 || !workspaceIdSchema.safeParse(id).success) return "misdirected";
  return { workspaceId: id, port };
}

/** Whether an Origin header names a preview origin (or anything under the preview domain). */
export function isPreviewOrigin(origin: string | undefined, domain: string): boolean {
  if (!origin || !URL.canParse(origin)) return false;
  return previewHostOf(new URL(origin).host, domain) !== null;
}
