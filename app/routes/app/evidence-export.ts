import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { exportEvidencePack, parseEvidenceScope, scopeErrorText } from "../../.server/evidence/export";
import type { Route } from "./+types/evidence-export";
import { viewerOf } from "./document.server";

/** The evidence page's JSON download: the same pack as GET /api/v1/evidence, audited as an export. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "audit.export");
  const locale = appLocale(context);
  const parsed = parseEvidenceScope(new URL(request.url).searchParams, locale);
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
    via: "json",
  });
  if (!pack) throw new Response("Not found", { status: 404 });
  const name = "document" in parsed.scope ? parsed.scope.document : `${parsed.scope.from}_${parsed.scope.to}`;
  return new Response(JSON.stringify(pack, null, 2), {
    headers: { ...headers, "Content-Disposition": `attachment; filename="evidence-${name}.json"` },
  });
}
