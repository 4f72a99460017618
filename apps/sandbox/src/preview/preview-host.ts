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

type PreviewHost = Readonly<PreviewTarget> | "misdirected" | null;

/** Host headers read lately (a browser repeats its Host on every request of a connection), bounded. */
const readHosts = new Map<string, PreviewHost>();
const MAX_READ_HOSTS = 1024;
/** A DNS name and a port; anything longer is read every time (and is no preview host). */
const MAX_HOST_LENGTH = 260;

/**
 * What a Host header is to the preview proxy: a preview origin (`<port>-<workspace>.<domain>`,
 * matched exactly), `misdirected` (a name under the preview domain that is not exactly one: the
 * service answers 421), or `null` (not under the preview domain: the IDE's own host check decides).
 */
export function previewHostOf(host: string | undefined, domain: string): PreviewHost {
  if (host === undefined) return null;
  if (host.length > MAX_HOST_LENGTH) return readPreviewHost(host, domain);
  const key = `${domain}\n${host}`;
  let read = readHosts.get(key);
  if (read === undefined) {
    // Any string can arrive here: a flood of names empties the memory rather than growing it.
    if (readHosts.size >= MAX_READ_HOSTS) readHosts.clear();
    read = readPreviewHost(host, domain);
    readHosts.set(key, read);
  }
  return read;
}

function readPreviewHost(host: string, domain: string): PreviewHost {
  const name = host.toLowerCase().match(HOST_HEADER)?.[1];
  if (!name?.endsWith(`.${domain}`)) return null;
  const match = LABEL.exec(name.slice(0, -domain.length - 1));
  const port = Number(match?.[1]);
  const id = match?.[2];
  if (!id || port > 65535 || !workspaceIdSchema.safeParse(id).success) return "misdirected";
  return Object.freeze({ workspaceId: id, port });
}

/** Whether an Origin header names a preview origin (or anything under the preview domain). */
export function isPreviewOrigin(origin: string | undefined, domain: string): boolean {
  if (!origin || !URL.canParse(origin)) return false;
  return previewHostOf(new URL(origin).host, domain) !== null;
}
