import { accessRefusal } from "@coder/protocol";
import { LeftWorkspace } from "../../components/access/LeftWorkspace";
import styles from "../../components/session/login-form.module.css";

export const metadata = { title: "Access ended · coder" };

/**
 * Where a guest lands whose link was revoked or expired, or whose workspace was deleted; and,
 * with `left`, a guest who chose to leave.
 */
export default async function EndedPage({
  searchParams,
}: {
  searchParams: Promise<{ code?: string; left?: string }>;
}) {
  const { code, left } = await searchParams;
  if (left !== undefined) {
    return (
      <main className={styles.page}>
        <div className={styles.card} data-testid="left-workspace">
          <LeftWorkspace className={styles.title} />
        </div>
      </main>
    );
  }
  const refusal = accessRefusal(Number(code));
  return (
    <main className={styles.page}>
      <div className={styles.card} data-testid="access-ended">
        <h1 className={styles.title}>{refusal?.message ?? "Your access ended."}</h1>
        <p className={styles.hint}>
          You no longer have access to this workspace. Ask its owner for a new link.
        </p>
      </div>
    </main>
  );
}
