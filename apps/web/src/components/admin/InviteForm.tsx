"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import settings from "../settings-page/settings-page.module.css";
import styles from "./admin.module.css";
import type { AdminUser } from "./admin-types";
import { LinkToCopy } from "./LinkToCopy";

/** Invites a person by e-mail address in a site role (`user.invite`) and shows the link to send them. */
export function InviteForm() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<AdminUser["siteRole"]>("member");
  const invite = useMutation(
    trpc.user.invite.mutationOptions({
      meta: SHOWN_INLINE,
      onSuccess: () => {
        setEmail("");
        void queryClient.invalidateQueries({ queryKey: trpc.user.list.queryKey() });
      },
    }),
  );
  return (
    <div>
      <form
        className={styles.invite}
        data-testid="invite-form"
        onSubmit={(event) => {
          event.preventDefault();
          invite.mutate({ email, role });
        }}
      >
        <input
          type="email"
          required
          maxLength={320}
          placeholder="e-mail address"
          aria-label="E-mail address to invite"
          data-testid="invite-email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <select
          aria-label="Role of the person invited"
          data-testid="invite-role"
          value={role}
          onChange={(event) => setRole(event.target.value as AdminUser["siteRole"])}
        >
          <option value="member">member</option>
          <option value="admin">admin</option>
        </select>
        <PendingButton
          pending={invite.isPending}
          type="submit"
          className="button primary"
          data-testid="invite"
        >
          Invite
        </PendingButton>
      </form>
      {invite.error && (
        <p className={settings.error} role="alert">
          {errorMessage(invite.error)}
        </p>
      )}
      {invite.data && <LinkToCopy made={invite.data} testId="invite-url" />}
    </div>
  );
}
