import type { ImportPhase, ImportProgress } from "@coder/protocol";
import styles from "./import.module.css";

const PHASES: Record<ImportPhase, string> = {
  connecting: "Connecting",
  counting: "Counting objects",
  receiving: "Receiving objects",
  resolving: "Resolving deltas",
  checkout: "Checking out files",
  unpacking: "Unpacking",
};

/** An import's phase and percentage (git's own progress, or how much of an archive was unpacked). */
export function ImportProgressBar({ progress }: { progress: ImportProgress | undefined }) {
  const phase = progress?.phase ?? "connecting";
  const percent = progress?.percent ?? null;
  return (
    <div
      className={styles.progress}
      data-testid="import-progress"
      data-phase={phase}
      role="progressbar"
      aria-label={PHASES[phase]}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
    >
      <span className={styles.progressLabel}>
        {PHASES[phase]}
        {percent !== null && ` ${percent}%`}
      </span>
      <span className={styles.track}>
        <span
          className={percent === null ? styles.fillUnknown : styles.fill}
          style={{ width: `${percent ?? 30}%` }}
        />
      </span>
    </div>
  );
}
