"use client";

import { useState } from "react";
import settings from "../settings-page/settings-page.module.css";
import styles from "./admin.module.css";
import type { AdminUser, Limits } from "./admin-types";

const FIELDS: { key: keyof Limits; label: string }[] = [
  { key: "workspaces", label: "Workspaces" },
  { key: "running", label: "Running" },
  { key: "memoryMb", label: "Memory MB" },
  { key: "cpus", label: "CPUs" },
  { key: "diskMb", label: "Disk MB" },
];

/**
 * A user's limits: each field shows what applies; an empty one takes the service's default. Saving
 * sends only the fields filled in (none: back to the defaults).
 */
export function LimitsEditor({
  user,
  saving,
  onSave,
}: {
  user: AdminUser;
  saving: boolean;
  onSave: (limits: Partial<Limits> | null) => void;
}) {
  const [draft, setDraft] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(user.ownLimits).map(([k, v]) => [k, String(v)])),
  );
  function save() {
    const own = Object.fromEntries(
      Object.entries(draft)
        .filter(([, v]) => v.trim() !== "")
        .map(([k, v]) => [k, Number(v)]),
    ) as Partial<Limits>;
    onSave(Object.keys(own).length ? own : null);
  }
  return (
    <div>
      <div className={styles.limits}>
        {FIELDS.map(({ key, label }) => (
          <label key={key} className={settings.muted}>
            {label}
            <input
              type="number"
              min={0}
              step={key === "cpus" ? 0.5 : 1}
              placeholder={String(user.limits[key])}
              value={draft[key] ?? ""}
              aria-label={`${label} of ${user.displayName}`}
              onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
            />
          </label>
        ))}
      </div>
      <button type="button" className="button" disabled={saving} onClick={save}>
        Save limits
      </button>
    </div>
  );
}
