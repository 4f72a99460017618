import { describe, expect, it } from "vitest";
import type { Principal } from "../auth/principal";
import {
  GUEST_UPDATE_BYTES_PER_LOAD,
  MAX_UPDATE_BYTES_PER_GUEST,
  MAX_UPDATE_BYTES_PER_LOAD,
  UpdateBudget,
} from "./update-budget";

const owner: Principal = { kind: "user", sessionId: "o1", userId: "u1", name: "Owner", siteRole: "admin" };
const guest = (sessionId: string): Principal => ({
  kind: "guest",
  sessionId,
  shareId: "s1",
  workspaceId: "w1",
  name: sessionId,
  role: "editor",
});

describe("the update budget of one load of a document", () => {
  it("counts nothing it refuses, so refused updates never use it up", () => {
    const budget = new UpdateBudget();
    for (let i = 0; i < 100; i++)
      expect(budget.take(guest("ed"), MAX_UPDATE_BYTES_PER_GUEST + 1)).toBe(false);
    expect(budget.take(owner, MAX_UPDATE_BYTES_PER_LOAD)).toBe(true);
    expect(budget.take(owner, 1)).toBe(false);
  });

  it("keeps at least half of it for the owner, whatever guests send", () => {
    const budget = new UpdateBudget();
    const chunk = 1024 * 1024;
    for (let g = 0; g < 10; g++) while (budget.take(guest(`g${g}`), chunk));
    let owners = 0;
    while (budget.take(owner, chunk)) owners += chunk;
    expect(owners).toBe(MAX_UPDATE_BYTES_PER_LOAD - GUEST_UPDATE_BYTES_PER_LOAD);
  });

  it("lets one guest use only their part of the guests' share", () => {
    const budget = new UpdateBudget();
    expect(budget.take(guest("ed"), MAX_UPDATE_BYTES_PER_GUEST)).toBe(true);
    expect(budget.take(guest("ed"), 1)).toBe(false);
    expect(budget.take(guest("eve"), MAX_UPDATE_BYTES_PER_GUEST)).toBe(true);
  });
});
