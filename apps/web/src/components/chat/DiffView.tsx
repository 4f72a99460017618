import styles from "./chat.module.css";
import { classifyDiff } from "./diff-lines";

/** A unified diff in one column, added and removed lines coloured. */
export function DiffView({ diff, testId = "tool-diff" }: { diff: string; testId?: string }) {
  return (
    <pre className={styles.diff} data-testid={testId}>
      {classifyDiff(diff).map((line, i) => (
        // Lines repeat and never move: the index is their identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <div key={i} className={styles[`diff-${line.kind}`]}>
          {line.text || " "}
        </div>
      ))}
    </pre>
  );
}
