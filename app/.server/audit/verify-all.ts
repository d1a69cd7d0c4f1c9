/** Every organisation's chain at once: what `npm run platform -- audit:verify` prints. */
import type { Db } from "../db/client.ts";
import { auditedOrganizations, type ChainVerification, verifyAuditChain } from "./verify.ts";

export interface OrganizationVerification extends ChainVerification {
  organizationId: string;
}

export async function verifyAllAuditChains(db: Db): Promise<OrganizationVerification[]> {
  const results: OrganizationVerification[] = [];
  for (const organizationId of await auditedOrganizations(db)) {
    results.push({ organizationId, ...(await verifyAuditChain(db, organizationId)) });
  }
  return results;
}

export function formatVerification(results: readonly OrganizationVerification[]): string {
  if (results.length === 0) return "no audit events yet\n";
  const lines = results.map(
    (r) =>
      `${r.valid ? "valid " : "BROKEN"}  ${r.organizationId}  events=${r.events}  firstBroken=${r.firstBroken ?? "-"}${r.reason ? `  reason: ${r.reason}` : ""}`,
  );
  const broken = results.filter((r) => !r.valid).length;
  lines.push(
    broken === 0
      ? `all ${results.length} chain(s) valid`
      : `${broken} of ${results.length} chain(s) broken: the first broken event and the reason of each are named above`,
  );
  return `${lines.join("\n")}\n`;
}
