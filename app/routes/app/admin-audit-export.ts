import { exportAuditCsv, exportAuditJson } from "../../.server/audit/export";
import { auditFiltersFrom } from "../../.server/auth/audit-filters";
import { requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import type { Route } from "./+types/admin-audit-export";

/** The audit page's export links: CSV (formula-safe) or JSON, each export itself audited. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "audit.export");
  const url = new URL(request.url);
  const { raw: _raw, ...filters } = auditFiltersFrom(url.searchParams);
  const meta = requestMeta(request, context);
  const db = context.get(servicesContext).api.database.db;
  const exportRequest = {
    organizationId: member.organizationId,
    filters: { ...filters, limit: 1000 },
    by: { actor: { id: member.userId, email: member.email }, ip: meta.ip, userAgent: meta.userAgent },
  };
  const stamp = new Date().toISOString().slice(0, 10);
  if (url.searchParams.get("format") === "json") {
    const page = await exportAuditJson(db, exportRequest);
    return new Response(JSON.stringify(page, null, 2), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="audit-${stamp}.json"`,
        "Cache-Control": "no-store",
      },
    });
  }
  const { csv } = await exportAuditCsv(db, exportRequest);
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${stamp}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
