"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";
import styles from "./picker.module.css";

export interface PickerProps<T> {
  /** Names the dialog for tests and assistive technology. */
  label: string;
  testId: string;
  placeholder: string;
  query: string;
  onQuery(query: string): void;
  items: readonly T[];
  itemKey(item: T): string;
  renderItem(item: T): ReactNode;
  onPick(item: T): void;
  /** Enter with no item to pick (quick open's `:40`). */
  onEnterWithoutItem?(): void;
  onClose(): void;
  /** Shown under the list: nothing found, still loading, results truncated. */
  note?: ReactNode;
}

/**
 * The box at the top of the IDE that quick open and the command palette share: type to filter,
 * arrows to move, Enter to pick, Escape (or a click outside) to close.
 */
export function Picker<T>(props: PickerProps<T>) {
  const { items, onPick, onClose } = props;
  const [active, setActive] = useState(0);
  const [shownItems, setShownItems] = useState(items);
  const list = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);

  // A new list starts at its first item.
  if (shownItems !== items) {
    setShownItems(items);
    setActive(0);
  }
  useEffect(() => input.current?.focus(), []);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const move = (by: number) =>
    setActive((i) => (items.length === 0 ? 0 : (i + by + items.length) % items.length));
  return (
    // A click outside moves the focus out of the dialog, which closes it (see the input's onBlur).
    <div className={styles.backdrop}>
      <div
        className={styles.picker}
        role="dialog"
        aria-label={props.label}
        data-testid={props.testId}
        tabIndex={-1}
      >
        <input
          ref={input}
          type="text"
          className={styles.input}
          data-testid={`${props.testId}-input`}
          placeholder={props.placeholder}
          value={props.query}
          spellCheck={false}
          aria-controls={`${props.testId}-list`}
          onChange={(event) => props.onQuery(event.target.value)}
          onBlur={(event) => {
            // Focus leaving the dialog (a click outside, Tab to the page) closes it.
            if (!event.currentTarget.parentElement?.contains(event.relatedTarget)) onClose();
          }}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown") move(1);
            else if (event.key === "ArrowUp") move(-1);
            else if (event.key === "Escape") onClose();
            else if (event.key === "Enter") {
              const item = items[active];
              if (item !== undefined) onPick(item);
              else props.onEnterWithoutItem?.();
            } else return;
            event.preventDefault();
          }}
        />
        <div ref={list} id={`${props.testId}-list`} className={styles.list} role="listbox">
          {items.map((item, index) => (
            // The input keeps the focus and handles the keys for the whole list.
            // biome-ignore lint/a11y/useKeyWithClickEvents: see above
            <div
              key={props.itemKey(item)}
              role="option"
              tabIndex={-1}
              aria-selected={index === active}
              data-index={index}
              data-testid={`${props.testId}-item`}
              className={`${styles.item} ${index === active ? styles.active : ""}`}
              onMouseMove={() => setActive(index)}
              onClick={() => onPick(item)}
            >
              {props.renderItem(item)}
            </div>
          ))}
        </div>
        {props.note && <div className={styles.note}>{props.note}</div>}
      </div>
    </div>
  );
}

/** `text` with the characters at `indexes` marked, for a fuzzy match. */
export function Highlighted({ text, indexes }: { text: string; indexes: readonly number[] }) {
  if (indexes.length === 0) return <>{text}</>;
  const marked = new Set(indexes);
  const parts: ReactNode[] = [];
  let run = "";
  let runMarked = false;
  const flush = (key: number) => {
    if (run) parts.push(runMarked ? <mark key={key}>{run}</mark> : run);
    run = "";
  };
  for (let i = 0; i < text.length; i++) {
    const isMarked = marked.has(i);
    if (isMarked !== runMarked) {
      flush(i);
      runMarked = isMarked;
    }
    run += text[i];
  }
  flush(text.length);
  return <>{parts}</>;
}
