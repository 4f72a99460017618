"use client";

import fuzzysort from "fuzzysort";
import { useMemo, useState } from "react";
import { Highlighted, Picker } from "../picker/Picker";
import styles from "../picker/picker.module.css";
import type { IdeAction, IdeCommands } from "./ide-actions";
import { describeShortcut, isMac } from "./shortcut";

interface Offer {
  action: IdeAction;
  indexes: readonly number[];
}

/** Ctrl-Shift-P: every action available now, by name, with its shortcut. */
export function CommandPalette({
  actions,
  ide,
  onClose,
}: {
  actions: readonly IdeAction[];
  ide: IdeCommands;
  onClose(): void;
}) {
  const [query, setQuery] = useState("");
  const mac = useMemo(isMac, []);
  const available = actions.filter((action) => !action.when || action.when(ide));
  const offers: Offer[] =
    query.trim() === ""
      ? available.map((action) => ({ action, indexes: [] }))
      : fuzzysort
          .go(query.trim(), available, { key: "title", threshold: 0.2, limit: 50 })
          .map((result) => ({ action: result.obj, indexes: result.indexes }));
  return (
    <Picker
      label="Commands"
      testId="command-palette"
      placeholder="Type the name of a command"
      query={query}
      onQuery={setQuery}
      items={offers}
      itemKey={(offer) => offer.action.id}
      renderItem={({ action, indexes }) => (
        <>
          <span className={styles.primary} data-action={action.id}>
            <Highlighted text={action.title} indexes={indexes} />
          </span>
          {action.keys && <kbd className={styles.shortcut}>{describeShortcut(action.keys, mac)}</kbd>}
        </>
      )}
      onPick={({ action }) => {
        onClose();
        action.run(ide);
      }}
      onClose={onClose}
      note={offers.length === 0 ? "No command matches." : undefined}
    />
  );
}
