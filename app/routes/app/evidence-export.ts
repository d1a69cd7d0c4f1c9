import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { exportEvidencePack, notFoundText, parseEvidenceScope, scopeErrorText } from "../../.server/evidence/export";
import { organisationNames } from "../../.server/evidence/names";
import { evidencePdf } from "../../.server/evidence/pdf";
import type { Route } from "./+types/evidence-export";
import { viewerOf } from "./document.server";

/**
 * The evidence page's downloads: the same pack as GET /api/v1/evidence, as JSON or (`format=pdf`)
 * a PDF in the reader's language; each audited as an export with its format.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "audit.export");
  const locale = appLocale(context);
  const params = new URL(request.url).searchParams;
  const format = params.get("format") === "pdf" ? "pdf" : "json";
  const parsed = parseEvidenceScope(params, locale);
  const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
  if (!parsed.ok) {
    return Response.json(
      { statusCode: 422, statusMessage: scopeErrorText(parsed.fieldErrors, locale), fieldErrors: parsed.fieldErrors },
      { status: 422, headers },
    );
  }
  const database = context.get(servicesContext).api.database;
  const meta = requestMeta(request, context);
  const pack = await exportEvidencePack(database, await viewerOf(database.db, member), parsed.scope, {
    ip: meta.ip,
    userAgent: meta.userAgent,
    via: format,
    format,
  });
  if (!pack) return Response.json({ statusCode: 404, statusMessage: notFoundText(locale) }, { status: 404, headers });
  const name = pack.scope.document ?? `${pack.scope.from}_${pack.scope.to}`;
  if (format === "pdf") {
    const pdf = await evidencePdf(pack, { locale, names: await organisationNames(database, member.organizationId) });
    return new Response(new Uint8Array(pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Cache-Control": "no-store",
        "Content-Disposition": `attachment; filename="evidence-${name}.pdf"`,
      },
    });
  }
  return new Response(JSON.stringify(pack, null, 2), {
    headers: { ...headers, "Content-Disposition": `attachment; filename="evidence-${name}.json"` },
  });
}
