import { requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { correctionsCsv } from "../../.server/documents/corrections";
import { exportCorrections } from "../../.server/documents/corrections-api";
import type { Route } from "./+types/admin-corrections-export";

/** The corrections page's export links: CSV (formula-safe) or JSON (what classify:eval --corrections reads), audited. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "corrections.export");
  const format = new URL(request.url).searchParams.get("format") === "json" ? "json" : "csv";
  const meta = requestMeta(request, context);
  const rows = await exportCorrections(
    context.get(servicesContext).api.database,
    { organizationId: member.organizationId, actor: { id: member.userId, email: member.email } },
    { ip: meta.ip, userAgent: meta.userAgent },
    format,
  );
  const stamp = new Date().toISOString().slice(0, 10);
  return new Response(format === "json" ? `${JSON.stringify(rows, null, 2)}\n` : correctionsCsv(rows), {
    headers: {
      "Content-Type": format === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="corrections-${stamp}.${format}"`,
      "Cache-Control": "no-store",
    },
  });
}
