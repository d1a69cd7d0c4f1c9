import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { createObligationOperation, listDocumentObligationsOperation } from "../../.server/api/operations/triage";
import { tokenTriageActor } from "../../.server/triage/api";
import { createObligation, listObligations, parseObligationFilters } from "../../.server/triage/obligations";
import { getTriage } from "../../.server/triage/store";

const route = apiRoute(
  handle(listDocumentObligationsOperation, async ({ params, token, api }) => {
    if ((await getTriage(api.database.db, token.organizationId, params.id)) === undefined) throw new ApiError(404);
    const filters = { ...parseObligationFilters(new URLSearchParams()), documentId: params.id };
    const rows = await listObligations(api.database.db, token.organizationId, filters);
    return rows.map(({ sourceId: _s, documentTitle: _t, ...obligation }) => obligation);
  }),
  handle(createObligationOperation, async ({ params, body, token, api, info, request, locale }) => {
    const actor = await tokenTriageActor(api.database, token, {
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
    });
    const outcome = await createObligation(api.database.db, actor, params.id, body, locale);
    if (!outcome.ok) {
      if (outcome.error === "not_found") throw new ApiError(404);
      throw new ApiError(422, { fieldErrors: outcome.errors });
    }
    return outcome.obligation;
  }),
);

export const loader = route.loader;
export const action = route.action;
