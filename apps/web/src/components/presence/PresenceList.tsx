"use client";

import { GuestBadge } from "./GuestBadge";
import styles from "./presence.module.css";
import { presenceLabel } from "./presence-label";
import type { Presence } from "./use-presence";

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : [name.trim()];
  return letters
    .map((w) => [...(w ?? "")][0] ?? "")
    .join("")
    .toUpperCase();
}

/**
 * Everyone connected to the workspace now, and the agent while it works: a coloured badge each,
 * with name, role and file. Clicking someone else follows them (their file, their cursor).
 */
export function PresenceList({ presence }: { presence: Presence }) {
  const { people, following, follow } = presence;
  return (
    <ul className={styles.list} data-testid="presence" aria-label="People in this workspace" data-follow-keep>
      {people.map((person) => {
        const where = person.file ? ` · ${person.file}` : "";
        const label = presenceLabel(person);
        // Everyone but the owner joined through a share link: their name is theirs to choose.
        const guest = !person.agent && person.role !== "owner";
        const followable = !person.you && !person.agent;
        const followed = person.id === following;
        const about = `${label}${guest ? " (guest)" : ""}${person.you ? " (you)" : ""}${person.agent ? "" : ` · ${person.role}`}${where}`;
        const content = (
          <>
            <span className={styles.avatar} style={{ background: person.colour }} aria-hidden="true">
              {person.agent ? "✦" : initials(person.name)}
            </span>
            <span className={styles.name}>
              {label}
              {person.you && <span className={styles.you}> (you)</span>}
              {person.agent && person.file && <span className={styles.file}> · {person.file}</span>}
            </span>
            {guest && <GuestBadge />}
          </>
        );
        return (
          <li
            key={person.id}
            className={`${styles.person} ${followed ? styles.followed : ""}`}
            title={followable ? `${about} — click to follow` : about}
            data-testid="presence-person"
            data-name={person.name}
            data-role={person.role}
            data-file={person.file ?? ""}
            data-agent-for={person.agent ? (person.agent.for ?? "") : undefined}
            data-following={followed ? "true" : undefined}
          >
            {followable ? (
              <button
                type="button"
                className={styles.follow}
                aria-pressed={followed}
                data-testid="presence-follow"
                onClick={() => follow(followed ? null : person.id)}
              >
                {content}
              </button>
            ) : (
              content
            )}
          </li>
        );
      })}
    </ul>
  );
}
