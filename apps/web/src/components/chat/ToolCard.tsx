import type { ToolPart } from "@coder/protocol";
import { useContext, useState } from "react";
import { answeredBy } from "./answered-by";
import styles from "./chat.module.css";
import { DiffView } from "./DiffView";
import { SubagentSlot } from "./subagent-slot";
import { subagentSession, type ToolBody, toolBody } from "./tool-body";
import { toolStatus, toolSummary } from "./tool-summary";

/** Bodies worth seeing without a click: what changed, what ran, what went wrong. */
const OPEN_BY_DEFAULT = new Set<ToolBody["kind"]>(["diff", "output", "error", "screenshot"]);

/** One tool call: its summary line, and under it (folded for reads and searches) what it did. */
export function ToolCard({ part }: { part: ToolPart }) {
  const Subagent = useContext(SubagentSlot);
  const status = toolStatus(part);
  const body = toolBody(part);
  const [open, setOpen] = useState<boolean | null>(null);
  const shown = open ?? OPEN_BY_DEFAULT.has(body.kind);
  const busy = status === "pending" || status === "running";
  const child = subagentSession(part);
  const [showChild, setShowChild] = useState(false);
  const answer = answeredBy(part);
  return (
    <div className={styles.toolCard} data-testid="tool-card" data-tool={part.tool} data-status={status}>
      <button
        type="button"
        className={styles.toolSummary}
        aria-expanded={shown}
        disabled={body.kind === "none"}
        onClick={() => setOpen(!shown)}
      >
        {busy ? <span className="spinner" /> : <span className={styles[`status-${status}`]}>●</span>}
        <span className={styles.toolTitle}>{toolSummary(part)}</span>
      </button>
      {answer && (
        <div className={styles.answeredBy} data-testid="tool-answered-by">
          {answer}
        </div>
      )}
      {shown && <ToolBodyView body={body} />}
      {child && (
        <button
          type="button"
          className={styles.subagentToggle}
          data-testid="subagent-toggle"
          aria-expanded={showChild}
          onClick={() => setShowChild(!showChild)}
        >
          {showChild ? "Hide" : "Show"} the sub-agent's work
        </button>
      )}
      {child && showChild && Subagent && <Subagent sessionId={child} />}
    </div>
  );
}

function ToolBodyView({ body }: { body: ToolBody }) {
  switch (body.kind) {
    case "error":
      return (
        <div className={styles.toolError} role="alert">
          {body.message}
          {body.hint && <div className={styles.hint}>{body.hint}</div>}
        </div>
      );
    case "diff":
      return <DiffView diff={body.diff} />;
    case "output":
      return (
        <pre className={styles.output} data-testid="tool-output">
          {body.text || "(no output yet)"}
        </pre>
      );
    case "screenshot":
      return (
        <div>
          {/* biome-ignore lint/performance/noImgElement: a data URL of the tool's PNG, not an asset to optimise */}
          <img
            className={styles.screenshot}
            src={body.src}
            width={body.width || undefined}
            height={body.height || undefined}
            alt="What the page looked like"
            data-testid="tool-screenshot"
          />
          <pre className={styles.output}>{body.text}</pre>
        </div>
      );
    case "lines":
      return (
        <pre className={styles.output}>
          {body.lines.map((l) => (
            <div key={l.number}>
              <span className={styles.lineNumber}>{l.number}</span>
              {l.text}
            </div>
          ))}
        </pre>
      );
    case "matches":
      return (
        <pre className={styles.output}>
          {body.matches.length === 0
            ? "(no matches)"
            : body.matches.map((m) => (
                <div key={`${m.path}:${m.line}`}>
                  <span className={styles.lineNumber}>
                    {m.path}:{m.line}
                  </span>
                  {m.text}
                </div>
              ))}
        </pre>
      );
    case "none":
      return null;
  }
}
