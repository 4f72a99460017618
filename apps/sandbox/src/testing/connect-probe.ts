/**
 * A python script run inside a workspace or job (the image has python, no nc or curl): tries each
 * `host:port` argument (3 s each) and prints one line per target, `<target> connected` or
 * `<target> failed <error>`. The network tests ask with it what a container can reach.
 */
export const CONNECT_PROBE = `
import socket, sys
for target in sys.argv[1:]:
    host, port = target.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
        print(target, "connected")
    except Exception as e:
        print(target, "failed", type(e).__name__)
`;

/** The targets CONNECT_PROBE's output says were reached. */
export function connectedTargets(out: string): string[] {
  return out
    .trim()
    .split("\n")
    .filter((l) => l.endsWith(" connected"))
    .map((l) => l.split(" ")[0] ?? "");
}
