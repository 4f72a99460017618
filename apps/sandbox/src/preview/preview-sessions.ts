import { hashSecret, newSecret } from "../auth/secrets";
import type { Db } from "../db/database";
import type { PreviewTarget } from "./preview-host";
import type { PreviewHolder } from "./preview-tokens";

/** A preview cookie is dropped after this long even if its IDE session lasts longer. */
const PREVIEW_SESSION_DAYS = 7;

/**
 * The preview origins' cookies (`coder_preview`), in the database so any instance recognises
 * them: each is for one port of one workspace and stands for one IDE session, so it works only
 * while that session does (logout, expiry, suspension and a revoked share end it too).
 */
export class PreviewSessions {
  constructor(private readonly db: Db) {}

  /** A new cookie value for `holder` on `target`. */
  async create(holder: PreviewHolder, target: PreviewTarget): Promise<string> {
    const cookie = newSecret();
    await this.purgeExpired();
    await this.db
      .insertInto("preview_sessions")
      .values({
        id_hash: hashSecret(cookie),
        session_id: holder.sessionId,
        principal_kind: holder.kind,
        workspace_id: target.workspaceId,
        port: target.port,
        expires_at: new Date(Date.now() + PREVIEW_SESSION_DAYS * 86_400_000).toISOString(),
      })
      .execute();
    return cookie;
  }

  /** Whose IDE session a cookie stands for, when it was made for exactly `target` and has not expired. */
  async holder(cookie: string, target: PreviewTarget): Promise<PreviewHolder | null> {
    const row = await this.db
      .selectFrom("preview_sessions")
      .select(["session_id", "principal_kind"])
      .where("id_hash", "=", hashSecret(cookie))
      .where("workspace_id", "=", target.workspaceId)
      .where("port", "=", target.port)
      .where("expires_at", ">", new Date().toISOString())
      .executeTakeFirst();
    return row ? { sessionId: row.session_id, kind: row.principal_kind } : null;
  }

  private async purgeExpired(): Promise<void> {
    await this.db
      .deleteFrom("preview_sessions")
      .where("expires_at", "<=", new Date().toISOString())
      .execute();
  }
}
