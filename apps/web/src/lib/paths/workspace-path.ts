/**
 * Paths as the service speaks them: relative to the workspace root, "/"-separated, "." for the
 * root itself. Kept in one place so the tree, the editor and the change feed agree on spelling.
 */

export const ROOT = ".";

/** "./src//a.ts" → "src/a.ts", "" or "/" → ".". */
export function normalizePath(path: string): string {
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  return parts.length === 0 ? ROOT : parts.join("/");
}

export function parentOf(path: string): string {
  const normal = normalizePath(path);
  const slash = normal.lastIndexOf("/");
  return slash === -1 ? ROOT : normal.slice(0, slash);
}

export function baseName(path: string): string {
  const normal = normalizePath(path);
  return normal.slice(normal.lastIndexOf("/") + 1);
}

export function joinPath(folder: string, name: string): string {
  return normalizePath(`${folder}/${name}`);
}

/** Whether `path` is `folder` itself or lies somewhere below it. */
export function isWithin(path: string, folder: string): boolean {
  const p = normalizePath(path);
  const f = normalizePath(folder);
  return f === ROOT || p === f || p.startsWith(`${f}/`);
}

/** The spelling of `path` after `from` was renamed to `to`; unchanged when it is not inside `from`. */
export function movedPath(path: string, from: string, to: string): string {
  const p = normalizePath(path);
  const f = normalizePath(from);
  if (p === f) return normalizePath(to);
  return isWithin(p, f) && f !== ROOT ? joinPath(to, p.slice(f.length + 1)) : p;
}

/** A name typed by a person for a new entry: one path segment, no separators. */
export function validEntryName(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === "" || trimmed === "." || trimmed === "..") return "Give it a name.";
  if (trimmed.includes("/")) return "A name cannot contain “/”.";
  if (trimmed.includes("\0")) return "A name cannot contain a NUL character.";
  return null;
}

/**
 * A link's target in a file (a Markdown link or image) as a workspace path: relative to the
 * file's folder, or to the root when it starts with "/". Undefined for a URL with a scheme, an
 * anchor alone, or a path that climbs out of the workspace.
 */
export function resolveLink(fromFile: string, href: string): string | undefined {
  const target = href.split(/[?#]/)[0] ?? "";
  if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return undefined;
  const start = target.startsWith("/")
    ? []
    : normalizePath(parentOf(fromFile))
        .split("/")
        .filter((p) => p !== ROOT);
  const parts = [...start];
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return undefined;
  }
  for (const part of decoded.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join("/");
}
