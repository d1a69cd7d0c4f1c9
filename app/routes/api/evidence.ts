import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { getEvidenceOperation } from "../../.server/api/operations/evidence";
import { exportEvidencePack, notFoundText, parseEvidenceScope } from "../../.server/evidence/export";
import { organisationNames } from "../../.server/evidence/names";
import { evidencePdf } from "../../.server/evidence/pdf";
import { tokenViewer } from "../../.server/evidence/viewer";

const route = apiRoute(
  handle(getEvidenceOperation, async ({ request, token, api, info, locale, query }) => {
    const parsed = parseEvidenceScope(new URL(request.url).searchParams, locale);
    if (!parsed.ok) throw new ApiError(422, { fieldErrors: parsed.fieldErrors });
    const format = query.format === "pdf" ? "pdf" : "json";
    const viewer = await tokenViewer(api.database, token);
    const pack = await exportEvidencePack(api.database, viewer, parsed.scope, {
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      via: "api",
      format,
      tokenId: token.tokenId,
    });
    if (!pack) throw new ApiError(404, { message: notFoundText(locale) });
    if (format === "json") return pack;
    const pdf = await evidencePdf(pack, { locale, names: await organisationNames(api.database, token.organizationId) });
    const name = pack.scope.document ?? `${pack.scope.from}_${pack.scope.to}`;
    return new Response(new Uint8Array(pdf), {
      headers: {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="evidence-${name}.pdf"`,
      },
    });
  }),
);

export const loader = route.loader;
export const action = route.action;
