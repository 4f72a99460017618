import type { ButtonHTMLAttributes } from "react";

interface PendingButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** The action this button started is under way: it shows a spinner and takes no second click. */
  pending: boolean;
}

/** A button that shows its action is under way, so long work never looks frozen. */
export function PendingButton({ pending, disabled, children, ...button }: PendingButtonProps) {
  return (
    <button type="button" {...button} disabled={pending || disabled} aria-busy={pending || undefined}>
      {pending && <span className="spinner" />}
      {children}
    </button>
  );
}
