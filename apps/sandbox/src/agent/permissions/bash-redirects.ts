import path from "node:path";
import type { Node } from "web-tree-sitter";
import { literalValue } from "./bash-words";
import { isOutsideWorkspace, normalizePath } from "./paths";

/**
 * What a file redirection does that its command's permission does not cover: `fine`, a write to
 * a path relative to the working directory (fine unless the line changes directory), or `odd`.
 */
export type RedirectVerdict = { kind: "fine" } | { kind: "relative-write" } | { kind: "odd"; why: string };

/** Operators that open their target for writing. */
const WRITES = new Set([">", ">>", ">|", "&>", "&>>", ">&", "<>"]);
/** Operators whose target may be a file descriptor to duplicate (`2>&1`, `<&0`, `>&-`). */
const DUPLICATES = new Set([">&", "<&"]);
/** Writing here cannot change what a later command does. */
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|fd\/\d+)$/;
/** bash opens a network connection for these instead of a file. */
const NETWORK = /^\/dev\/(tcp|udp)\//;

/**
 * Judges one `file_redirect`: a target only known at run time, a network connection, or a write
 * outside the workspace and /tmp (a shell's startup file, say, which every later command runs)
 * is odd; a command allowed to run is not thereby allowed to do those.
 */
export function judgeRedirect(node: Node): RedirectVerdict {
  const operator = node.children.find((c) => !c.isNamed)?.text ?? "";
  let relative = false;
  for (const destination of node.childrenForFieldName("destination")) {
    const target = literalValue(destination);
    if (target === undefined) {
      return { kind: "odd", why: `the target of ${operator} ${destination.text} is only known when it runs` };
    }
    if (DUPLICATES.has(operator) && /^(\d+|-)$/.test(target)) continue;
    if (NETWORK.test(path.posix.normalize(target))) {
      return { kind: "odd", why: `${operator} ${target} opens a network connection` };
    }
    if (!WRITES.has(operator) || HARMLESS_TARGETS.test(target)) continue;
    const where = normalizePath(target);
    if (where === "/tmp" || where.startsWith("/tmp/")) continue;
    if (isOutsideWorkspace(where))
      return { kind: "odd", why: `${operator} ${target} writes outside the workspace` };
    if (!target.startsWith("/")) relative = true;
  }
  return relative ? { kind: "relative-write" } : { kind: "fine" };
}
