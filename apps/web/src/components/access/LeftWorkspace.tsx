"use client";

import { useEffect, useState } from "react";
import { leftWorkspaceName } from "./leave-workspace";

/** What a guest who left reads: which workspace, and how to come back. */
export function LeftWorkspace({ className }: { className?: string }) {
  // Read after mounting: the server has no tab storage.
  const [name, setName] = useState<string | null>(null);
  useEffect(() => setName(leftWorkspaceName()), []);
  return (
    <>
      <h1 className={className} data-testid="left-title">
        {name ? `You left ${name}.` : "You left the workspace."}
      </h1>
      <p data-testid="left-how-to-come-back">
        To come back, open the link the owner shared with you again. If it no longer works, ask the owner for
        a new one.
      </p>
    </>
  );
}
