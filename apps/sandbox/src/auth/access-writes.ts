import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryId,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

/**
 * The tables the per-request access checks read (auth/access-cache.ts): sessions and their users,
 * workspaces and their named shares, share links and their guests, preview cookies and port
 * visibility.
 */
const ACCESS_TABLES = new Set([
  "login_sessions",
  "users",
  "workspaces",
  "workspace_members",
  "share_links",
  "guest_sessions",
  "preview_sessions",
  "preview_visibility",
]);

const WRITES = new Set(["InsertQueryNode", "UpdateQueryNode", "DeleteQueryNode", "MergeQueryNode"]);

/**
 * Times written while people work, which no access check reads: a person's "last seen" (from the
 * session check itself) and a workspace's last use (the idle stopper's, every few seconds).
 */
const UNRELATED_COLUMNS = new Set(["last_seen_at", "last_used_at"]);

/** Every table a query names, wherever in it (a write's target, a subquery, a join). */
function tablesOf(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) tablesOf(item, found);
  } else if (node !== null && typeof node === "object") {
    const n = node as { kind?: string; table?: { identifier?: { name?: string } } };
    const name = n.kind === "TableNode" ? n.table?.identifier?.name : undefined;
    if (name !== undefined) found.add(name);
    for (const value of Object.values(node)) tablesOf(value, found);
  }
  return found;
}

/** Whether an update sets only columns that no access check reads. */
function onlyUnrelated(node: OperationNode): boolean {
  const updates = (node as { updates?: readonly { column?: { column?: { name?: string } } }[] }).updates;
  return (
    node.kind === "UpdateQueryNode" &&
    updates !== undefined &&
    updates.every((u) => UNRELATED_COLUMNS.has(u.column?.column?.name ?? ""))
  );
}

/** Whether `node` writes to a table access is read from. */
export function writesAccess(node: OperationNode): boolean {
  if (!WRITES.has(node.kind) || onlyUnrelated(node)) return false;
  for (const table of tablesOf(node)) if (ACCESS_TABLES.has(table)) return true;
  return false;
}

/**
 * A Kysely plugin that calls `written` once a statement that writes to an access table has run
 * (inside a transaction: once it ran, before the commit). Every write of the service goes through
 * its database, so no way of changing access (a logout, a suspension, a revoked link or share, a
 * role or visibility change, a deleted workspace, ones added later) can forget to say so.
 */
export function accessWrites(written: () => void): KyselyPlugin {
  const pending = new WeakSet<QueryId>();
  return {
    transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
      if (writesAccess(node)) pending.add(queryId);
      return node;
    },
    async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (pending.delete(queryId)) written();
      return result;
    },
  };
}
