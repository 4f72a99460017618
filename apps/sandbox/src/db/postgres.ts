import {
  type KyselyPlugin,
  OperationNodeTransformer,
  PostgresDialect,
  type PrimitiveValueListNode,
  type RootOperationNode,
  type ValueNode,
} from "kysely";
import pg from "pg";

const OID = { bool: 16, int8: 20, json: 114, timestamptz: 1184, jsonb: 3802 } as const;

const parseTimestamp = pg.types.getTypeParser(OID.timestamptz);

/**
 * Rows read back look the same as on SQLite, so the service has one row model: timestamps
 * (stored as `timestamptz`) are ISO strings like `Date.toISOString()`, flags (stored as `boolean`)
 * are 1 or 0, identity ids (`bigint`) and counts are numbers (ids stay far below 2^53), and JSON
 * columns (`json`) are the text the service wrote.
 */
const parsers = new Map<number, (text: string) => unknown>([
  [OID.timestamptz, (text) => (parseTimestamp(text) as Date).toISOString()],
  [OID.bool, (text) => (text === "t" ? 1 : 0)],
  [OID.int8, Number],
  [OID.json, (text) => text],
  [OID.jsonb, (text) => text],
]);

const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    parsers.get(oid) ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

const withoutNul = (value: unknown): unknown =>
  typeof value === "string" && value.includes("\0") ? value.replaceAll("\0", "\uFFFD") : value;

/**
 * PostgreSQL text cannot hold U+0000 (SQLite can): a model or a repository that produces one must
 * not make a write fail, so every string parameter has it replaced by U+FFFD. JSON the service
 * writes is unaffected (JSON.stringify escapes it as `\u0000`, which `json` columns keep).
 */
class NulFreeStrings extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = withoutNul(node.value);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return node.values.some((v) => withoutNul(v) !== v)
      ? { ...node, values: node.values.map(withoutNul) }
      : node;
  }
}

export const nulFreeStrings: KyselyPlugin = {
  transformQuery: ({ node }) => new NulFreeStrings().transformNode(node) as RootOperationNode,
  transformResult: async ({ result }) => result,
};

/**
 * A PostgreSQL server at `url` (`postgres://user:password@host:port/database`, `?host=/socket/dir`).
 * A pooled connection the server drops (a restart, a failover) is logged and replaced by the pool.
 */
export function postgresDialect(url: string, log: (line: string) => void): PostgresDialect {
  const pool = new pg.Pool({ connectionString: url, types, max: 10 });
  pool.on("error", (error) => log(`database connection lost: ${error.message}`));
  return new PostgresDialect({ pool });
}
