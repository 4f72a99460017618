/** Which side of a conflict a person keeps. */
export type ConflictSide = "ours" | "theirs";

/**
 * "Accept ours" / "Accept theirs" for one conflict block or the whole file: the caller says what
 * accepting a side replaces; the test ids read `<testIdPrefix>-ours` / `<testIdPrefix>-theirs`.
 */
export function AcceptSides({
  testIdPrefix,
  disabled,
  onAccept,
}: {
  testIdPrefix: string;
  disabled: boolean;
  onAccept(side: ConflictSide): void;
}) {
  return (
    <>
      {(["ours", "theirs"] as const).map((side) => (
        <button
          key={side}
          type="button"
          className="button"
          data-testid={`${testIdPrefix}-${side}`}
          disabled={disabled}
          onClick={() => onAccept(side)}
        >
          Accept {side}
        </button>
      ))}
    </>
  );
}
