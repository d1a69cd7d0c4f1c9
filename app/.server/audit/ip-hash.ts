/**
 * Client IPs are stored as HMAC-SHA256 under a per-organisation key derived from the
 * platform's secret (AUTH_SECRET): the same address hashes alike within one organisation
 * (abuse can be correlated) and differently across organisations (no cross-tenant linking).
 * The server sets the secret once at start (setAuditSecret); until then a random key for
 * this process is used, so nothing ever stores a bare address.
 */
import { createHmac, randomBytes } from "node:crypto";

let processSecret: string = randomBytes(32).toString("base64url");

/** Called once at start with AUTH_SECRET (the same on every instance). */
export function setAuditSecret(secret: string): void {
  if (secret.length < 16) throw new Error("the audit secret must be at least 16 characters");
  processSecret = secret;
}

export function organizationIpKey(organizationId: string, secret: string = processSecret): Buffer {
  return createHmac("sha256", secret).update(`audit-ip\u0000${organizationId}`).digest();
}

export function hashIp(organizationId: string, ip: string, secret: string = processSecret): string {
  return createHmac("sha256", organizationIpKey(organizationId, secret)).update(ip).digest("hex");
}

/** The secret set at start: also keys the signed chain heads (head.ts). */
export function currentAuditSecret(): string {
  return processSecret;
}
