import type { ModelList, Session } from "@coder/protocol";
import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import styles from "./chat.module.css";

const AGENT_LABELS = { build: "Build", plan: "Plan (read-only)" } as const;

/**
 * The session's agent (build/plan) and model; a change holds from the next prompt on. A viewer,
 * who cannot change them, sees them as text.
 */
export function SessionSettings({
  session,
  models,
  disabled,
  canChange,
}: {
  session: Session;
  models: ModelList | undefined;
  disabled: boolean;
  canChange: boolean;
}) {
  if (!canChange) {
    const model = session.model ?? models?.defaultModel;
    const label = models?.models.find((m) => m.id === model)?.label ?? model;
    return (
      <div className={styles.settings} data-testid="session-settings-view">
        <span className={styles.muted}>
          {AGENT_LABELS[session.agent === "plan" ? "plan" : "build"]}
          {label ? ` · ${label}` : ""}
        </span>
      </div>
    );
  }
  return <SettingsPickers session={session} models={models} disabled={disabled} />;
}

function SettingsPickers({
  session,
  models,
  disabled,
}: {
  session: Session;
  models: ModelList | undefined;
  disabled: boolean;
}) {
  const trpc = useTRPC();
  const update = useMutation(trpc.session.update.mutationOptions({ meta: SHOWN_INLINE }));
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
        <option value="build">{AGENT_LABELS.build}</option>
        <option value="plan">{AGENT_LABELS.plan}</option>
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
