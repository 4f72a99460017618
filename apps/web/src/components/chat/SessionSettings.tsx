import type { ModelList, Session } from "@coder/protocol";
import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { useTRPC } from "../../lib/trpc/client";
import styles from "./chat.module.css";

/** The session's agent (build/plan) and model; a change holds from the next prompt on. */
export function SessionSettings({
  session,
  models,
  disabled,
}: {
  session: Session;
  models: ModelList | undefined;
  disabled: boolean;
}) {
  const trpc = useTRPC();
  const update = useMutation(trpc.session.update.mutationOptions());
  const model = session.model ?? models?.defaultModel ?? "";
  return (
    <div className={styles.settings}>
      <select
        aria-label="Agent"
        data-testid="agent-picker"
        value={session.agent === "plan" ? "plan" : "build"}
        disabled={disabled || update.isPending}
        onChange={(e) =>
          update.mutate({ sessionId: session.id, agent: e.target.value === "plan" ? "plan" : "build" })
        }
      >
        <option value="build">Build</option>
        <option value="plan">Plan (read-only)</option>
      </select>
      {models && models.models.length > 0 && (
        <select
          aria-label="Model"
          data-testid="model-picker"
          value={model}
          disabled={disabled || update.isPending}
          onChange={(e) => update.mutate({ sessionId: session.id, model: e.target.value })}
        >
          {model === "" && <option value="">Choose a model</option>}
          {models.models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
            </option>
          ))}
        </select>
      )}
      {update.isError && <span className={styles.errorText}>{errorMessage(update.error)}</span>}
    </div>
  );
}
