/**
 * The project's policy on top of better-auth: first-run setup, invitations, sign-in with the
 * lockout and per-IP limits, mandatory MFA (TOTP with no replay, recovery codes, passkeys),
 * sessions (idle 12 h, absolute 7 days), password change and reset, members, roles and groups.
 * Each flow is a module under flows/; this file composes them into one service. Every state change
 * writes its audit event in the same transaction when the change is ours (organisations, members,
 * invitations, groups, sessions ended by us); where better-auth writes the rows itself (sign-in,
 * MFA verification, password change) the event follows right after its call.
 */
import { appendSetCookies } from "./cookies.ts";
import { type AuthDeps, createAuthContext } from "./flows/context.ts";
import { groupFlow } from "./flows/groups.ts";
import { invitationFlow } from "./flows/invitations.ts";
import { memberFlow } from "./flows/members.ts";
import { mfaFlow } from "./flows/mfa.ts";
import { passkeyFlow } from "./flows/passkeys.ts";
import { passwordFlow } from "./flows/password.ts";
import { scimFlow } from "./flows/scim.ts";
import { sessionFlow } from "./flows/sessions.ts";
import { setupFlow } from "./flows/setup.ts";
import { signInFlow } from "./flows/sign-in.ts";
import { ssoFlow } from "./flows/sso.ts";
import { ssoAdminFlow } from "./flows/sso-admin.ts";
import { samlMetadataFlow } from "./flows/sso-metadata.ts";

export {
  AuthError,
  type AuthErrorCode,
  hashSecretToken,
  invitationDays,
  type RequestMeta,
  type SessionInfo,
  setupTokenHours,
  type WithCookies,
} from "./types.ts";

export function createAuthService(deps: AuthDeps) {
  const ctx = createAuthContext(deps);
  return {
    auth: ctx.auth,
    ...setupFlow(ctx),
    ...invitationFlow(ctx),
    ...signInFlow(ctx),
    ...passkeyFlow(ctx),
    ...sessionFlow(ctx),
    ...mfaFlow(ctx),
    ...passwordFlow(ctx),
    ...memberFlow(ctx),
    ...groupFlow(ctx),
    ...ssoFlow(ctx),
    ...ssoAdminFlow(ctx),
    ...samlMetadataFlow(ctx),
    ...scimFlow(ctx),
    appendSetCookies,
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
