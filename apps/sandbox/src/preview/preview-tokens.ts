import { hashSecret, newSecret } from "../auth/secrets";
import type { Db } from "../db/database";
import type { PreviewTarget } from "./preview-host";

/** How long a link of `preview.open` works. */
export const PREVIEW_TOKEN_SECONDS = 60;

/** Whose session a token or a preview cookie stands for. */
export interface PreviewHolder {
  sessionId: string;
  kind: "user" | "guest";
}

/**
 * The one-time tokens of `preview.open`, in the database so any instance may take them: each
 * works once, for 60 s, on exactly the port and workspace it was made for, and stands for the
 * session that asked for it. Only its hash is stored.
 */
export class PreviewTokens {
  constructor(private readonly db: Db) {}

  async mint(holder: PreviewHolder, target: PreviewTarget): Promise<string> {
    const token = newSecret();
    await this.purgeExpired();
    await this.db
      .insertInto("preview_tokens")
      .values({
        token_hash: hashSecret(token),
        session_id: holder.sessionId,
        principal_kind: holder.kind,
        workspace_id: target.workspaceId,
        port: target.port,
        expires_at: new Date(Date.now() + PREVIEW_TOKEN_SECONDS * 1000).toISOString(),
      })
      .execute();
    return token;
  }

  /**
   * Takes a token (it never works again, whatever the outcome): its holder when it is
   * unexpired and was made for `target`; null otherwise.
   */
  async take(token: string, target: PreviewTarget): Promise<PreviewHolder | null> {
    const row = await this.db
      .deleteFrom("preview_tokens")
      .where("token_hash", "=", hashSecret(token))
      .returningAll()
      .executeTakeFirst();
    if (!row || row.expires_at <= new Date().toISOString()) return null;
    if (row.workspace_id !== target.workspaceId || row.port !== target.port) return null;
    return { sessionId: row.session_id, kind: row.principal_kind };
  }

  private async purgeExpired(): Promise<void> {
    await this.db.deleteFrom("preview_tokens").where("expires_at", "<=", new Date().toISOString()).execute();
  }
}
