/** Error toasts: a small observable list, so code outside React (the query cache) can raise one. */

export interface Toast {
  id: number;
  message: string;
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
    const existing = this.toasts.find((toast) => toast.message === message);
    if (existing) return existing.id;
    const toast = { id: this.nextId++, message };
    this.set([...this.toasts, toast].slice(-MAX_TOASTS));
    return toast.id;
  }

  dismiss(id: number): void {
    this.set(this.toasts.filter((toast) => toast.id !== id));
  }

  private set(toasts: readonly Toast[]): void {
    this.toasts = toasts;
    for (const listener of this.listeners) listener();
  }
}
