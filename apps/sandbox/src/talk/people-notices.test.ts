import { describe, expect, it } from "vitest";
import { until } from "../testing/until";
import { type PeopleNotice, PeopleNotices } from "./people-notices";
import type { Speaker } from "./speaker";

const ada: Speaker = { key: "ada", name: "Ada", role: "editor", guest: true };
const bob: Speaker = { key: "bob", name: "Bob", role: "viewer", guest: true };
const carol: Speaker = { key: "carol", name: "Carol", role: "owner", guest: false };

function recorder(graceMs: number) {
  const told: string[] = [];
  const notices = new PeopleNotices(
    (workspace: string, notice: PeopleNotice, person: Speaker) =>
      told.push(`${workspace} ${person.name} ${notice}`),
    graceMs,
  );
  return { told, notices };
}

describe("notices of people coming and going", () => {
  it("tells a join at once and a leave once the person stayed away for the grace", async () => {
    const { told, notices } = recorder(50);
    notices.arrived("w1", ada);
    notices.departed("w1", ada);
    expect(told).toEqual(["w1 Ada joined"]);
    await until(() => told.length === 2, "the leave is told");
    expect(told).toEqual(["w1 Ada joined", "w1 Ada left"]);
  });

  it("says nothing when a person reloads the page (gone and back within the grace)", () => {
    const { told, notices } = recorder(60_000);
    notices.arrived("w1", ada);
    notices.departed("w1", ada);
    notices.arrived("w1", ada);
    notices.close();
    expect(told).toEqual(["w1 Ada joined"]);
  });

  it("tells a revoked guest's end once, with no leave after it, whichever comes first", async () => {
    const { told, notices } = recorder(50);
    notices.arrived("w1", ada);
    notices.arrived("w1", bob);
    notices.departed("w1", ada);
    notices.revoked("w1", ada);
    notices.revoked("w1", bob);
    notices.departed("w1", bob);
    // Carol's leave, due after Ada's and Bob's would have been, marks the end of the grace.
    notices.departed("w1", carol);
    await until(() => told.includes("w1 Carol left"), "Carol's leave is told");
    expect(told).toEqual([
      "w1 Ada joined",
      "w1 Bob joined",
      "w1 Ada revoked",
      "w1 Bob revoked",
      "w1 Carol left",
    ]);
  });
});
