import { requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { exportObligations } from "../../.server/triage/api";
import { obligationsCsv, parseObligationFilters } from "../../.server/triage/obligations";
import type { Route } from "./+types/obligations-export";

/** The register's export links: CSV (formula-safe) or JSON, with the page's filters; audited. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const url = new URL(request.url);
  const format = url.searchParams.get("format") === "json" ? "json" : "csv";
  const meta = requestMeta(request, context);
  const rows = await exportObligations(
    context.get(servicesContext).api.database,
    { organizationId: member.organizationId, actor: { id: member.userId, email: member.email } },
    { ip: meta.ip, userAgent: meta.userAgent },
    parseObligationFilters(url.searchParams),
    format,
  );
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(format === "json" ? `${JSON.stringify(rows, null, 2)}\n` : obligationsCsv(rows), {
    headers: {
      "Content-Type": format === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="obligations-${stamp}.${format}"`,
      "Cache-Control": "no-store",
    },
  });
}
