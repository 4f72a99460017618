import type { AgentName, Message, MessageInfo, Session, Turn, TurnStatus } from "@coder/protocol";
import type { Db } from "../../db/database";
import type { SessionTable, TurnTable } from "../../db/schema";
import { AgentError } from "../errors";
import { joinPart } from "../events/projection";
import { newId } from "../ids";
import type { Rule } from "../permissions/rules";

export function toSession(row: SessionTable): Session {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    parentId: row.parent_id,
    title: row.title,
    agent: row.agent as AgentName,
    model: row.model,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toTurn(row: TurnTable): Turn {
  return {
    id: row.id,
    sessionId: row.session_id,
    userMessageId: row.user_message_id,
    assistantMessageId: row.assistant_message_id,
    status: row.status as TurnStatus,
    error: row.error,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

/** Reads of sessions and their state tables (writes of a session's history go through its events). */
export class SessionStore {
  constructor(private readonly db: Db) {}

  async create(input: {
    workspaceId: string;
    parentId: string | null;
    title: string;
    agent: AgentName;
    model: string | null;
  }): Promise<Session> {
    const at = new Date().toISOString();
    const row: SessionTable = {
      id: newId("ses"),
      workspace_id: input.workspaceId,
      parent_id: input.parentId,
      title: input.title,
      agent: input.agent,
      model: input.model,
      created_at: at,
      updated_at: at,
    };
    await this.db.insertInto("sessions").values(row).execute();
    return toSession(row);
  }

  async get(id: string): Promise<Session> {
    const row = await this.db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new AgentError("not_found", `session ${id} does not exist`);
    return toSession(row);
  }

  /** The sessions people started in a workspace (not the sub-agents'), most recently active first. */
  async list(workspaceId: string): Promise<Session[]> {
    const rows = await this.db
      .selectFrom("sessions")
      .selectAll()
      .where("workspace_id", "=", workspaceId)
      .where("parent_id", "is", null)
      .orderBy("updated_at", "desc")
      .execute();
    return rows.map(toSession);
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("id", "=", id).execute();
  }

  async messages(sessionId: string): Promise<Message[]> {
    const [messages, parts] = await Promise.all([
      this.db
        .selectFrom("messages")
        .selectAll()
        .where("session_id", "=", sessionId)
        .orderBy("position")
        .execute(),
      this.db
        .selectFrom("parts")
        .selectAll()
        .where("session_id", "=", sessionId)
        .orderBy("position")
        .execute(),
    ]);
    const byMessage = new Map<string, Message>();
    const out = messages.map((m) => {
      const info: MessageInfo = {
        id: m.id,
        sessionId: m.session_id,
        role: m.role,
        agent: m.agent as AgentName,
        model: m.model,
        createdAt: m.created_at,
        ...(m.author_kind && m.author_name !== null
          ? { author: { kind: m.author_kind, name: m.author_name } }
          : {}),
      };
      const message: Message = { ...info, parts: [] };
      byMessage.set(m.id, message);
      return message;
    });
    for (const row of parts) byMessage.get(row.message_id)?.parts.push(joinPart(row));
    return out;
  }

  /** The id of the newest event of a session (0 when it has none). */
  async lastEventId(sessionId: string): Promise<number> {
    const row = await this.db
      .selectFrom("session_events")
      .select((eb) => eb.fn.max("id").as("id"))
      .where("session_id", "=", sessionId)
      .executeTakeFirst();
    return Number(row?.id ?? 0);
  }

  async runningTurn(sessionId: string): Promise<Turn | null> {
    const row = await this.db
      .selectFrom("turns")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("status", "=", "running")
      .executeTakeFirst();
    return row ? toTurn(row) : null;
  }

  /** Every running turn, with the instance that runs it. */
  async runningTurns(): Promise<(Turn & { instanceId: string | null })[]> {
    const rows = await this.db.selectFrom("turns").selectAll().where("status", "=", "running").execute();
    return rows.map((row) => ({ ...toTurn(row), instanceId: row.instance_id }));
  }

  /** Makes `to` the owner of a running turn still owned by `from`; false when another got there first. */
  async takeOverTurn(turnId: string, from: string | null, to: string): Promise<boolean> {
    const result = await this.db
      .updateTable("turns")
      .set({ instance_id: to })
      .where("id", "=", turnId)
      .where("status", "=", "running")
      .where((eb) => (from === null ? eb("instance_id", "is", null) : eb("instance_id", "=", from)))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async grants(sessionId: string): Promise<{ agent: string; rule: Rule }[]> {
    const rows = await this.db
      .selectFrom("permission_grants")
      .selectAll()
      .where("session_id", "=", sessionId)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      agent: r.agent,
      rule: { permission: r.permission, pattern: r.pattern, action: "allow" },
    }));
  }

  async addGrants(sessionId: string, agent: string, rules: readonly Rule[]): Promise<void> {
    if (rules.length === 0) return;
    const at = new Date().toISOString();
    await this.db
      .insertInto("permission_grants")
      .values(
        rules.map((r) => ({
          session_id: sessionId,
          agent,
          permission: r.permission,
          pattern: r.pattern,
          created_at: at,
        })),
      )
      .execute();
  }
}
