/** The auth service's shared vocabulary: who is asking, the signed-in session, errors, token hashing. */
import { createHash } from "node:crypto";
import type { MailLocale } from "./mails.ts";

export const setupTokenHours = 24;
export const invitationDays = 7;

/** Who is asking: the request's headers (cookies), client IP and user agent. */
export interface RequestMeta {
  headers: Headers;
  ip: string;
  userAgent: string;
}

export interface SessionInfo {
  sessionId: string;
  token: string;
  userId: string;
  email: string;
  name: string;
  locale: MailLocale;
  createdAt: Date;
  lastSeenAt: Date;
  mfaVerified: boolean;
  twoFactorEnabled: boolean;
}

export type AuthErrorCode =
  | "invalid_credentials"
  | "locked"
  | "rate_limited"
  | "invalid_code"
  | "code_reused"
  | "invalid_token"
  | "password_too_short"
  | "password_too_long"
  | "password_common"
  | "email_taken"
  | "not_found"
  | "forbidden"
  | "invalid_password"
  | "stale_session"
  | "passkey_failed"
  | "sso_refused"
  | "sso_unavailable"
  | "sso_no_provider"
  | "sso_required"
  | "saml_metadata_invalid"
  | "saml_metadata_not_idp"
  | "saml_metadata_no_sso"
  | "saml_metadata_unreachable"
  | "saml_certificate_invalid";

export class AuthError extends Error {
  override name = "AuthError";
  readonly code: AuthErrorCode;
  readonly retryAfterSeconds: number | undefined;
  constructor(code: AuthErrorCode, retryAfterSeconds?: number) {
    super(code);
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A result that carries cookies to set on the response. */
export interface WithCookies<T> {
  value: T;
  setCookies: string[];
}

export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
