"use client";

import { useMutation } from "@tanstack/react-query";
import { errorMessage } from "../../lib/errors/error-message";
import { SHOWN_INLINE } from "../../lib/errors/mutation-errors";
import { useTRPC } from "../../lib/trpc/client";
import { PendingButton } from "../controls/PendingButton";
import settings from "../settings-page/settings-page.module.css";
import type { AdminUser } from "./admin-types";
import { LinkToCopy } from "./LinkToCopy";

/** Makes a link that lets `user` set a new password (`user.resetLink`) and shows it to send them. */
export function ResetLinkButton({ user }: { user: AdminUser }) {
  const trpc = useTRPC();
  const reset = useMutation(trpc.user.resetLink.mutationOptions({ meta: SHOWN_INLINE }));
  return (
    <>
      <PendingButton
        pending={reset.isPending}
        className="button"
        data-testid="reset-link"
        title={`A link that lets ${user.displayName} set a new password and signs them out elsewhere`}
        onClick={() => reset.mutate({ userId: user.id })}
      >
        Reset link
      </PendingButton>
      {reset.error && (
        <div className={settings.error} role="alert">
          {errorMessage(reset.error)}
        </div>
      )}
      {reset.data && <LinkToCopy made={reset.data} testId="reset-url" />}
    </>
  );
}
