import { describe, expect, it } from "vitest";
import { type Principal, roleAllows, roleOn, serviceRole } from "./principal";

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
  it("makes the owner owner of every workspace and of the service", () => {
    expect(roleOn(owner, "ws1")).toBe("owner");
    expect(roleOn(owner, "anyotherworkspace")).toBe("owner");
    expect(serviceRole(owner)).toBe("owner");
  });

  it("gives a guest their role on their one workspace and nothing on any other", () => {
    expect(roleOn(viewer, "ws1")).toBe("viewer");
    expect(roleOn({ ...viewer, role: "editor" }, "ws1")).toBe("editor");
    expect(roleOn(viewer, "ws2")).toBeNull();
    expect(serviceRole(viewer)).toBe("viewer");
  });

  it("orders the roles viewer < editor < owner", () => {
    expect(roleAllows("owner", "editor")).toBe(true);
    expect(roleAllows("editor", "editor")).toBe(true);
    expect(roleAllows("viewer", "editor")).toBe(false);
    expect(roleAllows("editor", "owner")).toBe(false);
  });
});
