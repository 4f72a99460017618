import { describe, expect, it } from "vitest";
import type { Principal } from "../auth/principal";
import {
  CollabPeople,
  GUEST_DOCUMENTS_SHARE,
  MAX_DOCUMENTS_PER_WORKSPACE,
  MAX_EARLY_BYTES_PER_PERSON,
  PERSON_LIMITS,
  type PersonSocket,
} from "./collab-people";

const owner: Principal = { kind: "user", sessionId: "o1", userId: "u1", name: "Owner", siteRole: "admin" };
const guest = (sessionId: string): Principal => ({
  kind: "guest",
  sessionId,
  shareId: "s1",
  workspaceId: "w1",
  name: sessionId,
  role: "viewer",
});

/** A socket holding `documents`, with `earlyBytes` waiting. */
const socket = (documents: string[] = [], earlyBytes = 0): PersonSocket & { documents: string[] } => ({
  documents,
  earlyBytes,
  heldDocuments() {
    return this.documents;
  },
});

const names = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe("what each person may hold in a workspace's live editing", () => {
  it("refuses a guest's socket past their limit, and takes one again once one closed", () => {
    const people = new CollabPeople();
    const vera = guest("vera");
    const sockets = names("s", PERSON_LIMITS.guest.sockets).map(() => socket());
    for (const s of sockets) expect(people.admit(vera, s)).toBe(true);
    expect(people.admit(vera, socket())).toBe(false);
    expect(people.admit(guest("ed"), socket())).toBe(true);
    expect(people.admit(owner, socket())).toBe(true);
    people.leave(vera, sockets[0] as PersonSocket);
    expect(people.admit(vera, socket())).toBe(true);
  });

  it("lets a guest hold only their own few documents, also spread over several sockets", () => {
    const people = new CollabPeople();
    const vera = guest("vera");
    const half = PERSON_LIMITS.guest.documents / 2;
    people.admit(vera, socket(names("a", half)));
    people.admit(vera, socket(names("b", half)));
    const loaded = new Set([...names("a", half), ...names("b", half)]);
    expect(people.mayOpen(vera, "c", loaded)).toBe(false);
    // Another socket of hers may still open what she already holds.
    expect(people.mayOpen(vera, "a0", loaded)).toBe(true);
  });

  it("never lets guests together take the documents the owner needs", () => {
    const people = new CollabPeople();
    const loaded = new Set<string>();
    for (let g = 0; loaded.size < MAX_DOCUMENTS_PER_WORKSPACE && g < 100; g++) {
      const held = socket();
      people.admit(guest(`g${g}`), held);
      for (const name of names(`g${g}-`, PERSON_LIMITS.guest.documents)) {
        if (!people.mayOpen(guest(`g${g}`), name, loaded)) break;
        held.documents.push(name);
        loaded.add(name);
      }
    }
    expect(loaded.size).toBe(GUEST_DOCUMENTS_SHARE);
    const mine = socket();
    people.admit(owner, mine);
    for (const name of names("own", PERSON_LIMITS.user.documents)) {
      expect(people.mayOpen(owner, name, loaded)).toBe(true);
      mine.documents.push(name);
      loaded.add(name);
    }
    // Documents the owner holds are the owner's, even when a guest opened them first.
    expect(people.mayOpen(guest("late"), "g0-0", loaded)).toBe(true);
  });

  it("shares one allowance for bytes waiting between all of a person's sockets", () => {
    const people = new CollabPeople();
    const vera = guest("vera");
    people.admit(vera, socket([], 1000));
    people.admit(vera, socket([], 2000));
    expect(people.earlyRoom(vera)).toBe(MAX_EARLY_BYTES_PER_PERSON - 3000);
    expect(people.earlyRoom(guest("ed"))).toBe(MAX_EARLY_BYTES_PER_PERSON);
  });
});
