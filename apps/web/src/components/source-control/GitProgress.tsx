import styles from "./source-control.module.css";

/** Lines shown of a running fetch, pull or push: git rewrites its percentages, the last say where it is. */
const SHOWN_LINES = 4;

/** git's own progress lines of a running fetch, pull or push, as they arrive. */
export function GitProgress({ label, lines }: { label: string; lines: readonly string[] }) {
  return (
    <output className={styles.progress} data-testid="git-progress">
      {label}…
      {lines.slice(-SHOWN_LINES).map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines repeat (percentages); their place is their identity
        <span key={i} className={styles.progressLine} data-testid="git-progress-line">
          {line}
        </span>
      ))}
    </output>
  );
}
