import { readdir, readFile, readlink } from "node:fs/promises";

/**
 * The name of the process that holds each of `inodes` (a socket), by the /proc/<pid>/fd links that
 * point at `socket:[inode]`. The daemon runs as the same user as the workspace's processes, so it
 * may read their fd folders; a process it may not read (or one that just ended) is skipped.
 */
export async function socketOwners(
  inodes: ReadonlySet<string>,
  proc = "/proc",
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  if (inodes.size === 0) return owners;
  const pids = (await readdir(proc).catch(() => [])).filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    const fds = await readdir(`${proc}/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      const target = await readlink(`${proc}/${pid}/fd/${fd}`).catch(() => "");
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (!inode || !inodes.has(inode) || owners.has(inode)) continue;
      const name = await readFile(`${proc}/${pid}/comm`, "utf8").catch(() => "");
      owners.set(inode, name.trim().slice(0, 256));
    }
    if (owners.size === inodes.size) break;
  }
  return owners;
}
