import type { ToolErrorCode } from "@coder/tools";
import type { ServiceErrorKind } from "../../errors/service-error";

export interface ToolFailure {
  code: ToolErrorCode;
  /** What the model can do about it, where the kind alone says so. */
  hint?: string;
}

/** The tool error (the code the model reads, and a hint) each kind of service error becomes in a tool call. */
export const toolFailureOf: Record<ServiceErrorKind, ToolFailure> = {
  not_found: { code: "not_found" },
  forbidden: { code: "permission_denied" },
  conflict: { code: "conflict" },
  busy: { code: "unavailable", hint: "try again in a moment" },
  // The model cannot start a stopped workspace (the one precondition a tool call meets): people can.
  precondition: { code: "unavailable", hint: "ask the person: only they can change that" },
  bad_request: { code: "invalid_args" },
  unavailable: { code: "unavailable", hint: "try again in a moment" },
  too_large: { code: "io_error" },
  too_many: { code: "unavailable", hint: "try again in a moment" },
};
