import { z } from "zod";

/** The longest field git passes a credential helper that we forward (a host, a path). */
const MAX_CREDENTIAL_FIELD_CHARS = 2048;
const credentialField = z.string().max(MAX_CREDENTIAL_FIELD_CHARS);

/**
 * What the daemon asks the service (the other way round from daemonMethods). The service checks
 * every request against this table; the daemon runs beside whatever the repository runs, so what
 * it asks is hostile input, and the answer is decided by the service alone.
 */
export const daemonRequests = {
  /**
   * git, run by the daemon, wants a login (our credential helper's `get`). `requestId` is the
   * one-shot id of the service's call that ran git (a panel's fetch, pull or push), null for git run
   * in a terminal or by the agent. The answer is null when the service gives no login.
   */
  "credential.get": {
    params: z.object({
      requestId: z.string().min(1).max(64).nullable(),
      protocol: credentialField,
      host: credentialField,
      path: credentialField.optional(),
    }),
    result: z.object({ username: z.string(), password: z.string() }).nullable(),
  },
} as const;

export type DaemonRequest = keyof typeof daemonRequests;
export type DaemonRequestParams<R extends DaemonRequest> = z.output<(typeof daemonRequests)[R]["params"]>;
export type DaemonRequestResult<R extends DaemonRequest> = z.input<(typeof daemonRequests)[R]["result"]>;
