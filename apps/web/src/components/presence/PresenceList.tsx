"use client";

import type { PresencePerson } from "@coder/protocol";
import { GuestBadge } from "./GuestBadge";
import styles from "./presence.module.css";

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words.at(-1)] : [name.trim()];
  return letters
    .map((w) => [...(w ?? "")][0] ?? "")
    .join("")
    .toUpperCase();
}

/** Everyone connected to the workspace now: a coloured badge each, with name, role and file. */
export function PresenceList({ people }: { people: PresencePerson[] }) {
  return (
    <ul className={styles.list} data-testid="presence" aria-label="People in this workspace">
      {people.map((person) => {
        const where = person.file ? ` · ${person.file}` : "";
        // Everyone but the owner joined through a share link: their name is theirs to choose.
        const guest = person.role !== "owner";
        return (
          <li
            key={person.id}
            className={styles.person}
            title={`${person.name}${guest ? " (guest)" : ""}${person.you ? " (you)" : ""} · ${person.role}${where}`}
            data-testid="presence-person"
            data-name={person.name}
            data-role={person.role}
            data-file={person.file ?? ""}
          >
            <span className={styles.avatar} style={{ background: person.colour }} aria-hidden="true">
              {initials(person.name)}
            </span>
            <span className={styles.name}>
              {person.name}
              {person.you && <span className={styles.you}> (you)</span>}
            </span>
            {guest && <GuestBadge />}
          </li>
        );
      })}
    </ul>
  );
}
