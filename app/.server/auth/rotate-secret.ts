/**
 * Rotating AUTH_SECRET (decision 0144): what the old secret signed or encrypted, carried over to the
 * new one in one transaction, after every audit chain verified under the old one.
 *
 * - audit heads and purge anchors (decision 0084): re-signed;
 * - TOTP secrets and encrypted backup codes (better-auth's symmetricEncrypt): re-encrypted, so
 *   enrolled authenticator apps keep working;
 * - the SSO providers' OIDC client secrets: re-encrypted;
 * - sessions: the session cookie is signed with the secret, so every session is ended (members
 *   sign in again); each organisation's audit trail records the rotation and the number ended;
 * - IP hashes in audit events stay as they are (the addresses are not stored): an address seen
 *   before and after the rotation no longer hashes alike.
 * API tokens, calendar feed tokens and SCIM tokens are SHA-256 hashes and webhook secrets are
 * random values: none depends on AUTH_SECRET.
 */
import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { eq, isNotNull, sql } from "drizzle-orm";
import { signAnchor, signHead } from "../audit/head.ts";
import { currentAuditSecret, setAuditSecret } from "../audit/ip-hash.ts";
import { recordAudit } from "../audit/record.ts";
import { type OrganizationVerification, verifyAllAuditChains } from "../audit/verify-all.ts";
import type { Database, Db } from "../db/client.ts";
import { rowsOf } from "../db/rows.ts";
import { auditAnchors, auditHeads } from "../db/schema/audit.ts";
import { session, twoFactor } from "../db/schema/auth.ts";
import { ssoProvider } from "../db/schema/sso.ts";

export interface RotationResult {
  /** Chains that did not verify under the old secret: nothing was changed. */
  broken: OrganizationVerification[];
  heads: number;
  anchors: number;
  secondFactors: number;
  ssoSecrets: number;
  sessionsEnded: number;
}

/** better-auth's ciphertext, bare hex or in its versioned envelope, under the new secret. */
async function reencrypt(data: string, oldSecret: string, newSecret: string): Promise<string> {
  const envelope = /^\$ba\$(\d+)\$/.exec(data);
  if (!envelope) {
    return symmetricEncrypt({ key: newSecret, data: await symmetricDecrypt({ key: oldSecret, data }) });
  }
  const version = Number(envelope[1]);
  const plain = await symmetricDecrypt({
    key: { keys: new Map([[version, oldSecret]]), currentVersion: version },
    data,
  });
  return symmetricEncrypt({ key: { keys: new Map([[version, newSecret]]), currentVersion: version }, data: plain });
}

export async function rotateAuthSecret(
  database: Database,
  oldSecret: string,
  newSecret: string,
): Promise<RotationResult> {
  if (oldSecret === newSecret) throw new Error("the new secret is the old one");
  const previous = currentAuditSecret();
  const result: RotationResult = {
    broken: [],
    heads: 0,
    anchors: 0,
    secondFactors: 0,
    ssoSecrets: 0,
    sessionsEnded: 0,
  };
  try {
    await database.db.transaction(async (tx) => {
      const db = tx as unknown as Db;
      setAuditSecret(oldSecret);
      result.broken = (await verifyAllAuditChains(db)).filter((chain) => !chain.valid);
      if (result.broken.length > 0) return;
      for (const head of await db.select().from(auditHeads)) {
        await db
          .update(auditHeads)
          .set({ signature: signHead(head.organizationId, head.seq, head.hash, newSecret) })
          .where(eq(auditHeads.organizationId, head.organizationId));
        result.heads++;
      }
      for (const anchor of await db.select().from(auditAnchors)) {
        await db
          .update(auditAnchors)
          .set({ signature: signAnchor(anchor.organizationId, anchor.seq, anchor.hash, anchor.at, newSecret) })
          .where(eq(auditAnchors.organizationId, anchor.organizationId));
        result.anchors++;
      }
      for (const row of await db.select().from(twoFactor)) {
        await db
          .update(twoFactor)
          .set({
            secret: await reencrypt(row.secret, oldSecret, newSecret),
            // Plain JSON when stored unencrypted (an older setting); encrypted otherwise.
            backupCodes: row.backupCodes.startsWith("[")
              ? row.backupCodes
              : await reencrypt(row.backupCodes, oldSecret, newSecret),
          })
          .where(eq(twoFactor.id, row.id));
        result.secondFactors++;
      }
      for (const row of await db.select().from(ssoProvider).where(isNotNull(ssoProvider.oidcClientSecret))) {
        await db
          .update(ssoProvider)
          .set({ oidcClientSecret: await reencrypt(row.oidcClientSecret ?? "", oldSecret, newSecret) })
          .where(eq(ssoProvider.id, row.id));
        result.ssoSecrets++;
      }
      // Per organisation, the sessions its members held, for the audit trail.
      const ended = await rowsOf<{ organization_id: string; sessions: number }>(
        tx,
        sql`select m.organization_id, count(distinct s.id)::int as sessions
          from auth_member m left join auth_session s on s.user_id = m.user_id group by m.organization_id`,
      );
      result.sessionsEnded = (await db.delete(session).returning({ id: session.id })).length;
      setAuditSecret(newSecret);
      for (const row of ended) {
        await recordAudit(tx, {
          organizationId: row.organization_id,
          actor: null,
          action: "auth.secret_rotated",
          object: { type: "organization", id: row.organization_id },
          detail: { via: "secret:rotate", sessionsEnded: row.sessions },
        });
      }
      const after = (await verifyAllAuditChains(db)).filter((chain) => !chain.valid);
      if (after.length > 0) throw new Error(`chains do not verify under the new secret: ${JSON.stringify(after)}`);
    });
  } finally {
    setAuditSecret(previous.length >= 16 ? previous : newSecret);
  }
  return result;
}
