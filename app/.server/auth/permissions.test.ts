import { describe, expect, it } from "vitest";
import { can, grantableRoles } from "./permissions.ts";

const org = "org-a";

describe("can", () => {
  it("lets members use the app but not administer it", () => {
    const member = { role: "member" as const, organizationId: org };
    expect(can(member, "app.use")).toBe(true);
    expect(can(member, "account.manage")).toBe(true);
    for (const action of [
      "members.view",
      "members.invite",
      "groups.manage",
      "tokens.manage",
      "audit.view",
      "topics.manage",
      "profiles.manage_group",
      "deliveries.manage",
      "webhooks.manage",
    ] as const) {
      expect(can(member, action)).toBe(false);
    }
  });

  it("lets admins and owners administer their own organisation only", () => {
    for (const role of ["admin", "owner"] as const) {
      const member = { role, organizationId: org };
      expect(can(member, "members.invite")).toBe(true);
      expect(can(member, "groups.manage", { organizationId: org })).toBe(true);
      expect(can(member, "groups.manage", { organizationId: "org-b" })).toBe(false);
      expect(can(member, "audit.view", { organizationId: "org-b" })).toBe(false);
    }
  });

  it("lets every member read documents, and only admins and owners see readers and manage sources", () => {
    expect(can({ role: "member", organizationId: org }, "documents.read")).toBe(true);
    for (const action of ["documents.readers", "sources.manage"] as const) {
      expect(can({ role: "member", organizationId: org }, action)).toBe(false);
      expect(can({ role: "admin", organizationId: org }, action)).toBe(true);
      expect(can({ role: "owner", organizationId: org }, action)).toBe(true);
    }
  });

  it("keeps owners out of admins' reach", () => {
    expect(can({ role: "admin", organizationId: org }, "members.suspend", { organizationId: org, role: "owner" })).toBe(
      false,
    );
    expect(can({ role: "owner", organizationId: org }, "members.suspend", { organizationId: org, role: "owner" })).toBe(
      true,
    );
    expect(grantableRoles({ role: "admin" })).toEqual(["admin", "member"]);
    expect(grantableRoles({ role: "member" })).toEqual([]);
  });
});
