/** Toasts: a small observable list, so code outside React (the query cache) can raise one. */

/** A button on a toast (a port that opened offers "Open"); clicking it also dismisses the toast. */
export interface ToastAction {
  label: string;
  run(): void;
}

export interface Toast {
  id: number;
  /** An error says something failed; news says something happened. */
  kind: "error" | "news";
  message: string;
  action?: ToastAction;
}

/** A burst of failures must not cover the page: only the latest few stay. */
const MAX_TOASTS = 4;

export class ToastStore {
  private toasts: readonly Toast[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): readonly Toast[] => this.toasts;

  /** Raises an error toast; a message already on screen (a failing poll, say) is not repeated. */
  error(message: string): number {
    return this.raise({ kind: "error", message });
  }

  /** Tells of something that happened (a port started listening), with an action to follow it up. */
  news(message: string, action?: ToastAction): number {
    return this.raise({ kind: "news", message, action });
  }

  private raise(toast: Omit<Toast, "id">): number {
    const existing = this.toasts.find((shown) => shown.message === toast.message);
    if (existing) return existing.id;
    const raised = { id: this.nextId++, ...toast };
    this.set([...this.toasts, raised].slice(-MAX_TOASTS));
    return raised.id;
  }

  dismiss(id: number): void {
    this.set(this.toasts.filter((toast) => toast.id !== id));
  }

  private set(toasts: readonly Toast[]): void {
    this.toasts = toasts;
    for (const listener of this.listeners) listener();
  }
}
