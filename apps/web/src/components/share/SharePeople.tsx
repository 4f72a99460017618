"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import styles from "./share.module.css";

/** While the dialog is open, the people refresh this often (open connections). */
const REFRESH_MS = 3000;

/**
 * The owner's named shares in the Share dialog: give a person with an account view or edit
 * rights by their e-mail address, see who has them and how many connections each holds, and take
 * them back (which disconnects that person from this workspace at once).
 */
export function SharePeople({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"viewer" | "editor">("viewer");
  const people = useQuery({
    ...trpc.share.people.queryOptions({ workspaceId }),
    refetchInterval: REFRESH_MS,
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.share.people.queryKey({ workspaceId }) });
  const share = useMutation(
    trpc.share.create.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: () => {
        setEmail("");
        void refresh();
      },
    }),
  );
  const revoke = useMutation(trpc.share.revoke.mutationOptions({ meta: SHOWN_INLINE, onSuccess: refresh }));
  const error = share.error ?? revoke.error ?? people.error;

  return (
    <section aria-label="People">
      <form
        className={styles.create}
        onSubmit={(event) => {
          event.preventDefault();
          share.mutate({ workspaceId, role, email });
        }}
      >
        <label>
          Share with{" "}
          <input
            type="email"
            required
            placeholder="name@example.com"
            data-testid="share-person-email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <label>
          who can{" "}
          <select
            data-testid="share-person-role"
            value={role}
            onChange={(event) => setRole(event.target.value as "viewer" | "editor")}
          >
            <option value="viewer">view</option>
            <option value="editor">edit</option>
          </select>
        </label>
        <PendingButton
          pending={share.isPending}
          type="submit"
          className="button primary"
          data-testid="share-person-add"
        >
          Share
        </PendingButton>
      </form>
      {error && (
        <p className={styles.error} role="alert">
          {errorMessage(error)}
        </p>
      )}
      <ul className={styles.links} data-testid="share-people">
        {people.data?.map((person) => (
          <li key={person.userId} className={styles.link} data-testid="share-person">
            <span className={styles.role}>{person.role}</span>
            <span className={styles.linkState}>
              {person.name}
              {person.email && ` <${person.email}>`}
            </span>
            <span className={styles.joined}>
              {person.openConnections > 0 ? `${person.openConnections} open` : "not connected"}
            </span>
            <button
              type="button"
              className="button danger"
              data-testid="share-person-revoke"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate({ workspaceId, userId: person.userId })}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
