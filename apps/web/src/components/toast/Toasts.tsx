"use client";

import { createContext, type ReactNode, useContext, useEffect, useSyncExternalStore } from "react";
import type { Toast, ToastStore } from "./toast-store";
import styles from "./toasts.module.css";

const TOAST_LIFETIME_MS = 8000;
const ToastContext = createContext<ToastStore | null>(null);

export function ToastProvider({ store, children }: { store: ToastStore; children: ReactNode }) {
  return (
    <ToastContext.Provider value={store}>
      {children}
      <ToastList store={store} />
    </ToastContext.Provider>
  );
}

export function useToasts(): ToastStore {
  const store = useContext(ToastContext);
  if (!store) throw new Error("useToasts needs a ToastProvider above it");
  return store;
}

const noToasts: readonly Toast[] = [];

function ToastList({ store }: { store: ToastStore }) {
  const toasts = useSyncExternalStore(store.subscribe, store.snapshot, () => noToasts);
  return (
    <output className={styles.list} aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} store={store} />
      ))}
    </output>
  );
}

function ToastItem({ toast, store }: { toast: Toast; store: ToastStore }) {
  useEffect(() => {
    const timer = setTimeout(() => store.dismiss(toast.id), TOAST_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [store, toast.id]);
  const onDismiss = () => store.dismiss(toast.id);
  return (
    <div className={styles.toast} data-kind={toast.kind} data-testid={`${toast.kind}-toast`}>
      <span className={styles.message}>{toast.message}</span>
      {toast.action && (
        <button
          type="button"
          className="button"
          onClick={() => {
            toast.action?.run();
            onDismiss();
          }}
        >
          {toast.action.label}
        </button>
      )}
      <button type="button" className={styles.close} onClick={onDismiss} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
