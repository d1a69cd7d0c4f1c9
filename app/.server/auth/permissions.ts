/**
 * The one permission helper: what a member of an organisation may do. Loaders and actions
 * call `requireMember(context, action)` (./guard.ts), which uses `can` here; components never
 * decide access.
 */
export type Role = "owner" | "admin" | "member";
export const roles: readonly Role[] = ["owner", "admin", "member"];

export type Action =
  | "app.use"
  | "account.manage"
  | "members.view"
  | "members.invite"
  | "members.change_role"
  | "members.suspend"
  | "members.end_sessions"
  | "groups.view"
  | "groups.manage"
  | "tokens.manage"
  | "audit.view"
  | "audit.export"
  | "topics.manage"
  | "alerts.use"
  | "profiles.manage_group"
  | "deliveries.manage"
  | "webhooks.manage"
  | "documents.read"
  | "documents.readers"
  | "corrections.export"
  | "sources.manage"
  | "sso.manage";

export interface MemberInfo {
  userId: string;
  email: string;
  name: string;
  organizationId: string;
  organizationName: string;
  memberId: string;
  role: Role;
  locale: "es" | "en";
}

/** Objects that belong to an organisation (members, groups, tokens, invitations, events). */
export interface OrgObject {
  organizationId: string;
  /** For a member object: that member's role (owners can be changed by owners only). */
  role?: Role;
}

/** What every member may do; every other action is for admins and owners (a new action is admin-only until listed here). */
const memberActions: ReadonlySet<Action> = new Set([
  "app.use",
  "account.manage",
  "groups.view",
  "alerts.use",
  "documents.read",
]);

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/** Whether `member` may do `action` (on `object`, when the action concerns one). */
export function can(member: Pick<MemberInfo, "role" | "organizationId">, action: Action, object?: OrgObject): boolean {
  if (object && object.organizationId !== member.organizationId) return false;
  if (object?.role === "owner" && member.role !== "owner" && action.startsWith("members.")) return false;
  if (memberActions.has(action)) return true;
  return member.role === "owner" || member.role === "admin";
}

/** Roles `member` may grant: owners any, admins admin or member. */
export function grantableRoles(member: Pick<MemberInfo, "role">): Role[] {
  if (member.role === "owner") return ["owner", "admin", "member"];
  if (member.role === "admin") return ["admin", "member"];
  return [];
}
