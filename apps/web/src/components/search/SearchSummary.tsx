import { MAX_SEARCH_MATCHES } from "@coder/protocol";
import styles from "./search.module.css";
import type { useFileSearch } from "./use-file-search";

/** How many matches in how many files, while searching and after; the error when it failed. */
export function SearchSummary({ results }: { results: ReturnType<typeof useFileSearch>["results"] }) {
  if (results.status === "idle") return null;
  const files = results.files.length;
  const counts = `${results.matchCount.toLocaleString("en")} ${results.matchCount === 1 ? "result" : "results"} in ${files} ${files === 1 ? "file" : "files"}`;
  return (
    <p
      className={styles.summary}
      data-testid="search-summary"
      data-status={results.status}
      role={results.status === "failed" ? "alert" : undefined}
    >
      {results.status === "searching" && <span className="spinner" />}
      {results.status === "failed"
        ? results.error
        : results.status === "searching"
          ? `Searching… ${counts}`
          : counts}
      {results.truncated && (
        <span className={styles.truncated}>
          {" "}
          Results truncated: showing the first {MAX_SEARCH_MATCHES.toLocaleString("en")} matches; narrow the
          search.
        </span>
      )}
    </p>
  );
}
