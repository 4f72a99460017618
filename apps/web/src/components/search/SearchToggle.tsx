import styles from "./search.module.css";

/** An on/off switch of the search (case, whole word, regular expression, replace). */
export function SearchToggle({
  label,
  text,
  testId,
  on,
  set,
}: {
  label: string;
  text: string;
  testId: string;
  on: boolean;
  set(on: boolean): void;
}) {
  return (
    <button
      type="button"
      className={styles.toggle}
      title={label}
      aria-label={label}
      aria-pressed={on}
      data-testid={testId}
      onClick={() => set(!on)}
    >
      {text}
    </button>
  );
}
