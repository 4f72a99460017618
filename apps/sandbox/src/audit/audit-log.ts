import type { Insertable, Selectable } from "kysely";
import type { Db } from "../db/database";
import type { AuditEventTable } from "../db/schema";
import type { AuditEntry } from "./audit-entry";
import { redactDetail, redactText } from "./redact-detail";

/** One stored entry, as `audit.list` and the JSONL export give it. */
export interface AuditEvent {
  id: number;
  at: string;
  actor: { kind: AuditEventTable["actor_kind"]; id: string | null; name: string; onBehalfOf: string | null };
  action: string;
  target: string | null;
  workspaceId: string | null;
  address: string | null;
  userAgent: string | null;
  detail: Record<string, unknown> | null;
}

export interface AuditFilters {
  workspaceId?: string;
  actorId?: string;
  action?: string;
  /** ISO times: entries at or after `since`, before `until`. */
  since?: string;
  until?: string;
}

/** Whose entries a caller may read: an admin everyone's, a user those of the workspaces they own. */
export type AuditReader = { all: true } | { ownerId: string };

export const MAX_AUDIT_PAGE = 200;

function eventOf(row: Selectable<AuditEventTable>): AuditEvent {
  return {
    id: row.id,
    at: row.at,
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name, onBehalfOf: row.on_behalf_of },
    action: row.action,
    target: row.target,
    workspaceId: row.workspace_id,
    address: row.address,
    userAgent: row.user_agent,
    detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>),
  };
}

/**
 * The audit trail (append-only `audit_events`, migration 0015_audit). `record` returns at once:
 * the write happens behind the act it records, and a failed write is logged, never thrown, so
 * the trail can neither slow down nor break what people do.
 */
export class AuditLog {
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: (line: string) => void,
  ) {}

  record(entry: AuditEntry): void {
    let row: Insertable<AuditEventTable>;
    try {
      row = {
        at: new Date().toISOString(),
        actor_kind: entry.actor.kind,
        actor_id: entry.actor.id,
        actor_name: redactText(entry.actor.name, 128) ?? "",
        on_behalf_of: entry.actor.onBehalfOf ?? null,
        action: entry.action,
        target: redactText(entry.target),
        workspace_id: entry.workspaceId ?? null,
        address: redactText(entry.client?.address, 64),
        user_agent: redactText(entry.client?.userAgent),
        detail: redactDetail(entry.detail),
      };
    } catch (err) {
      this.log(`audit ${entry.action}: ${(err as Error).message}`);
      return;
    }
    const write = this.db
      .insertInto("audit_events")
      .values(row)
      .execute()
      .then(
        () => {},
        (err: Error) => this.log(`audit ${entry.action} not recorded: ${err.message}`),
      )
      .finally(() => this.writing.delete(write));
    this.writing.add(write);
  }

  /** Resolves once every entry recorded so far is written (or its failure logged). */
  async settled(): Promise<void> {
    await Promise.all([...this.writing]);
  }

  /** Newest first, `limit` entries older than the entry `cursor` (an id); `nextCursor` continues. */
  async list(
    reader: AuditReader,
    filters: AuditFilters,
    page: { cursor?: number; limit: number },
  ): Promise<{ entries: AuditEvent[]; nextCursor: number | null }> {
    const limit = Math.min(Math.max(1, page.limit), MAX_AUDIT_PAGE);
    let query = this.db.selectFrom("audit_events").selectAll().orderBy("id", "desc").limit(limit);
    if ("ownerId" in reader) {
      const owned = this.db.selectFrom("workspaces").select("id").where("owner_id", "=", reader.ownerId);
      query = query.where("workspace_id", "in", owned);
    }
    if (filters.workspaceId) query = query.where("workspace_id", "=", filters.workspaceId);
    if (filters.actorId) query = query.where("actor_id", "=", filters.actorId);
    if (filters.action) query = query.where("action", "=", filters.action);
    if (filters.since) query = query.where("at", ">=", filters.since);
    if (filters.until) query = query.where("at", "<", filters.until);
    if (page.cursor !== undefined) query = query.where("id", "<", page.cursor);
    const rows = await query.execute();
    const entries = rows.map(eventOf);
    return { entries, nextCursor: entries.length === limit ? (entries.at(-1)?.id ?? null) : null };
  }

  /** Every entry matching `filters`, newest first, a page at a time (the JSONL export). */
  async *every(reader: AuditReader, filters: AuditFilters): AsyncGenerator<AuditEvent> {
    let cursor: number | undefined;
    do {
      const page = await this.list(reader, filters, { limit: MAX_AUDIT_PAGE, ...(cursor ? { cursor } : {}) });
      yield* page.entries;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Deletes the entries older than `days` days; returns how many went. */
  async purgeOlderThan(days: number, now = Date.now()): Promise<number> {
    const cutoff = new Date(now - days * 86_400_000).toISOString();
    const result = await this.db.deleteFrom("audit_events").where("at", "<", cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
