import { describe, expect, it } from "vitest";
import { guestRoleOn, type Principal, roleAllows, serviceRole } from "./principal";

const owner: Principal = { kind: "user", sessionId: "s1", userId: "u1", name: "Owner", siteRole: "admin" };
const viewer: Principal = {
  kind: "guest",
  sessionId: "s2",
  shareId: "share1",
  workspaceId: "ws1",
  name: "Ada",
  role: "viewer",
};

describe("a principal's role", () => {
  it("lets every user make workspaces of their own (their role on each is the database's)", () => {
    expect(serviceRole(owner)).toBe("owner");
  });

  it("gives a guest their role on their one workspace and nothing on any other", () => {
    expect(guestRoleOn(viewer, "ws1")).toBe("viewer");
    expect(guestRoleOn({ ...viewer, role: "editor" }, "ws1")).toBe("editor");
    expect(guestRoleOn(viewer, "ws2")).toBeNull();
    expect(serviceRole(viewer)).toBe("viewer");
  });

  it("orders the roles viewer < editor < owner", () => {
    expect(roleAllows("owner", "editor")).toBe(true);
    expect(roleAllows("editor", "editor")).toBe(true);
    expect(roleAllows("viewer", "editor")).toBe(false);
    expect(roleAllows("editor", "owner")).toBe(false);
  });
});
