/**
 * SAML providers configured by metadata URL follow their IdP's certificate rolls (decision 0163):
 * the metadata is read again daily (a kernel schedule, sso/jobs.ts) and when a response's signature
 * fails with the kept certificate (at most once per provider every few minutes, whatever the
 * instances: the attempt is claimed by a conditional UPDATE). A changed certificate or SSO URL is
 * kept and audited with the system as actor and the IdP; a failed read is kept for the admins'
 * page, and the provider keeps what it had.
 */
import { createHash, X509Certificate } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import { ssoProvider } from "../../db/schema/sso.ts";
import { validateOutboundUrl } from "../../net/outbound.ts";
import { readIdpMetadata, SamlMetadataError } from "../../sso/saml-metadata.ts";
import { fetchSamlMetadata } from "../../sso/saml-metadata-fetch.ts";
import type { AuthContext } from "./context.ts";
import { auditSso } from "./sso-accounts.ts";

/** After a failed signature, the metadata is read again at most this often per provider. */
export const samlMetadataRetryMs = 5 * 60_000;

/** Why a re-read was not taken: the code the admins' page shows. */
export type MetadataProblem = SamlMetadataError["problem"] | "saml_metadata_unreachable" | "saml_metadata_other_idp";

class MetadataRefused extends Error {
  readonly code: MetadataProblem;
  constructor(code: MetadataProblem, detail: string) {
    super(detail);
    this.code = code;
  }
}

export type MetadataRefreshReason = "scheduled" | "signature_failed";
export type MetadataRefreshOutcome = "changed" | "unchanged" | "failed" | "skipped";

const fingerprint = (pem: string | null) => {
  if (!pem) return null;
  try {
    return new X509Certificate(pem).fingerprint256;
  } catch {
    return createHash("sha256").update(pem.replace(/\s/g, "")).digest("hex");
  }
};

export function samlMetadataFlow(ctx: AuthContext) {
  const { db, config } = ctx;
  const policy = { allowPrivate: config.allowPrivateIdpUrls };

  async function refreshSamlMetadata(
    providerId: string,
    reason: MetadataRefreshReason,
    now = new Date(),
  ): Promise<MetadataRefreshOutcome> {
    // Claim the attempt: after a failed signature only if none was made in the last few minutes.
    const [provider] = await db
      .update(ssoProvider)
      .set({ samlMetadataAttemptedAt: now })
      .where(
        and(
          eq(ssoProvider.id, providerId),
          eq(ssoProvider.kind, "saml"),
          isNotNull(ssoProvider.samlMetadataUrl),
          reason === "signature_failed"
            ? or(
                isNull(ssoProvider.samlMetadataAttemptedAt),
                lt(ssoProvider.samlMetadataAttemptedAt, new Date(now.getTime() - samlMetadataRetryMs)),
              )
            : undefined,
        ),
      )
      .returning();
    if (!provider?.samlMetadataUrl) return "skipped";
    let read: ReturnType<typeof readIdpMetadata>;
    try {
      read = readIdpMetadata(await fetchSamlMetadata(policy, provider.samlMetadataUrl), now);
      if (read.entityId !== provider.samlIdpEntityId) {
        throw new MetadataRefused("saml_metadata_other_idp", `the metadata names ${read.entityId}`);
      }
      const sso = await validateOutboundUrl(read.ssoUrl, policy);
      if (!sso.ok) throw new MetadataRefused("saml_metadata_no_sso", "the SSO URL is not allowed");
    } catch (error) {
      // Kept as a code the admins' page words (app/i18n/*/app.ts errors and sso); the detail is logged.
      const code =
        error instanceof MetadataRefused
          ? error.code
          : error instanceof SamlMetadataError
            ? error.problem
            : "saml_metadata_unreachable";
      await db.update(ssoProvider).set({ samlMetadataError: code }).where(eq(ssoProvider.id, provider.id));
      ctx.log.warn({ providerId, reason, code, err: (error as Error).message }, "SAML metadata not refreshed");
      return "failed";
    }
    const before = fingerprint(provider.samlCertificate);
    const after = fingerprint(read.certificate);
    const certificateChanged = before !== after;
    const ssoUrlChanged = read.ssoUrl !== provider.samlEntryPoint;
    await db.transaction(async (tx) => {
      await tx
        .update(ssoProvider)
        .set({
          samlMetadataFetchedAt: now,
          samlMetadataError: null,
          ...(certificateChanged || ssoUrlChanged
            ? { samlCertificate: read.certificate, samlEntryPoint: read.ssoUrl, updatedAt: now }
            : {}),
        })
        .where(eq(ssoProvider.id, provider.id));
      if (certificateChanged || ssoUrlChanged) {
        await auditSso(tx, provider, null, "sso.metadata_changed", null, {
          reason,
          entityId: read.entityId,
          metadataUrl: provider.samlMetadataUrl,
          ...(certificateChanged
            ? { certificate: { from: before, to: after, validTo: read.certificateValidTo.toISOString() } }
            : {}),
          ...(ssoUrlChanged ? { ssoUrl: { from: provider.samlEntryPoint, to: read.ssoUrl } } : {}),
        });
      }
    });
    if (certificateChanged || ssoUrlChanged) {
      ctx.log.info({ providerId, reason, certificateChanged, ssoUrlChanged }, "SAML metadata changed");
      return "changed";
    }
    return "unchanged";
  }

  return {
    refreshSamlMetadata,
    /** The daily re-read: every SAML provider set up by metadata URL (one after the other). */
    async refreshAllSamlMetadata(now = new Date()): Promise<Record<MetadataRefreshOutcome, number>> {
      const rows = await db
        .select({ id: ssoProvider.id })
        .from(ssoProvider)
        .where(and(eq(ssoProvider.kind, "saml"), isNotNull(ssoProvider.samlMetadataUrl)));
      const counts: Record<MetadataRefreshOutcome, number> = { changed: 0, unchanged: 0, failed: 0, skipped: 0 };
      for (const { id } of rows) counts[await refreshSamlMetadata(id, "scheduled", now)]++;
      return counts;
    },
  };
}
