import { describe, expect, it } from "vitest";
import { replace } from "../replace";

const source = `function save(record) {
  validate(record);
  const row = toRow(record);
  // write through the cache
  cache.put(record.id, row);
  db.insert(row);
  audit.log("saved", record.id);
  return row;
}
`;

describe("context-aware strategy", () => {
  it("matches a block the model quoted without two of its lines", () => {
    const old = `function save(record) {
  validate(record);
  const row = toRow(record);
  cache.put(record.id, row);
  db.insert(row);
  return row;
}`;
    const updated = old.replace("db.insert(row);", "await db.insert(row);");
    const result = replace(source, old, updated);
    expect(result).toMatchObject({ ok: true, strategy: "context-aware" });
    if (result.ok) expect(result.content).toBe(`${updated}\n`);
  });

  it("refuses a block whose anchors match but whose lines between mostly differ", () => {
    const old = `function save(record) {
  const row = serialize(record);
  queue.push(row);
  return row;
}`;
    expect(replace(source, old, "x")).toMatchObject({ ok: false, code: "not_found" });
  });
});
