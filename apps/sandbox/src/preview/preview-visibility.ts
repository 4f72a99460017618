import type { PreviewVisibility } from "@coder/protocol";
import type { Role } from "../auth/principal";
import { roleAllows } from "../auth/principal";
import type { Db } from "../db/database";

/** The least role on the workspace each visibility lets in (null: anyone, signed in or not). */
const NEEDED: Record<PreviewVisibility, Role | null> = {
  private: "editor",
  workspace: "viewer",
  public: null,
};

/** Whether someone with `role` on the workspace (null: none, or not signed in) may open a port of this visibility. */
export function visibilityAllows(visibility: PreviewVisibility, role: Role | null): boolean {
  const needed = NEEDED[visibility];
  return needed === null || (role !== null && roleAllows(role, needed));
}

/**
 * Who may open each port's preview, set by the owner and kept in the database (so every instance
 * agrees); a port without a row is private. A workspace that stops loses its settings: everything
 * is private again when it starts.
 */
export class PreviewVisibilityStore {
  constructor(private readonly db: Db) {}

  async of(workspaceId: string, port: number): Promise<PreviewVisibility> {
    const row = await this.db
      .selectFrom("preview_visibility")
      .select("visibility")
      .where("workspace_id", "=", workspaceId)
      .where("port", "=", port)
      .executeTakeFirst();
    return row?.visibility ?? "private";
  }

  /** Every port of the workspace that is not private. */
  async all(workspaceId: string): Promise<Map<number, PreviewVisibility>> {
    const rows = await this.db
      .selectFrom("preview_visibility")
      .select(["port", "visibility"])
      .where("workspace_id", "=", workspaceId)
      .execute();
    return new Map(rows.map((r) => [r.port, r.visibility]));
  }

  async set(workspaceId: string, port: number, visibility: PreviewVisibility): Promise<void> {
    if (visibility === "private") {
      await this.db
        .deleteFrom("preview_visibility")
        .where("workspace_id", "=", workspaceId)
        .where("port", "=", port)
        .execute();
      return;
    }
    const updated_at = new Date().toISOString();
    await this.db
      .insertInto("preview_visibility")
      .values({ workspace_id: workspaceId, port, visibility, updated_at })
      .onConflict((oc) => oc.columns(["workspace_id", "port"]).doUpdateSet({ visibility, updated_at }))
      .execute();
  }

  /** Every port of the workspace private again; true when any was not. */
  async reset(workspaceId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("preview_visibility")
      .where("workspace_id", "=", workspaceId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
