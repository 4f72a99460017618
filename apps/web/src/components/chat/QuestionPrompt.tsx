import type { QuestionRequest } from "@coder/protocol";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { useCanEdit } from "../access/workspace-access";
import styles from "./chat.module.css";

/**
 * The agent's questions: pick an option (or several, where allowed) for each, then send. The
 * first answer counts; a viewer sees the questions without the means to answer.
 */
export function QuestionPrompt({ request }: { request: QuestionRequest }) {
  const canAct = useCanEdit();
  const trpc = useTRPC();
  const answer = useMutation(trpc.session.answer.mutationOptions({ meta: SHOWN_INLINE }));
  const [chosen, setChosen] = useState<string[][]>(() => request.questions.map(() => []));

  const toggle = (index: number, option: string, multiple: boolean) =>
    setChosen((all) =>
      all.map((picked, i) => {
        if (i !== index) return picked;
        if (!multiple) return [option];
        return picked.includes(option) ? picked.filter((o) => o !== option) : [...picked, option];
      }),
    );
  const send = (answers: string[][] | null) =>
    answer.mutate({ sessionId: request.sessionId, requestId: request.id, answers });

  return (
    <div className={styles.prompt} data-testid="question">
      {request.questions.map((q, index) => (
        <fieldset key={q.question} className={styles.question}>
          <legend className={styles.promptTitle}>{q.question}</legend>
          {q.options.map((option) => (
            <label key={option} className={styles.option}>
              <input
                type={q.multiple ? "checkbox" : "radio"}
                name={`${request.id}-${index}`}
                data-testid="question-option"
                checked={chosen[index]?.includes(option) ?? false}
                disabled={!canAct}
                onChange={() => toggle(index, option, q.multiple === true)}
              />
              {option}
            </label>
          ))}
        </fieldset>
      ))}
      {canAct ? (
        <div className={styles.promptActions}>
          <button
            type="button"
            className="button primary"
            data-testid="question-submit"
            disabled={answer.isPending || chosen.some((c) => c.length === 0)}
            onClick={() => send(chosen)}
          >
            Answer
          </button>
          <button type="button" className="button" disabled={answer.isPending} onClick={() => send(null)}>
            Decline
          </button>
        </div>
      ) : (
        <p className={styles.muted} data-testid="question-watch-only">
          An owner or editor of this workspace can answer.
        </p>
      )}
      {answer.isError && <div className={styles.toolError}>{errorMessage(answer.error)}</div>}
    </div>
  );
}
