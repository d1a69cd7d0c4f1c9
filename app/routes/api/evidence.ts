import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { getEvidenceOperation } from "../../.server/api/operations/evidence";
import { exportEvidencePack, parseEvidenceScope } from "../../.server/evidence/export";
import { tokenViewer } from "../../.server/evidence/viewer";

const route = apiRoute(
  handle(getEvidenceOperation, async ({ request, token, api, info, locale }) => {
    const parsed = parseEvidenceScope(new URL(request.url).searchParams, locale);
    if (!parsed.ok) throw new ApiError(422, { fieldErrors: parsed.fieldErrors });
    const viewer = await tokenViewer(api.database, token);
    const pack = await exportEvidencePack(api.database, viewer, parsed.scope, {
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      via: "api",
      tokenId: token.tokenId,
    });
    if (!pack) throw new ApiError(404);
    return pack;
  }),
);

export const loader = route.loader;
export const action = route.action;
