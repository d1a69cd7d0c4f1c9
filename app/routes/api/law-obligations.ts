import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { createLawObligationOperation, listLawObligationsOperation } from "../../.server/api/operations/triage";
import { organisationFollowsLaw } from "../../.server/laws/reach";
import { tokenTriageActor } from "../../.server/triage/api";
import { createLawObligation, listObligations, parseObligationFilters } from "../../.server/triage/obligations";

const route = apiRoute(
  handle(listLawObligationsOperation, async ({ params, token, api }) => {
    // The organisation's followed laws only (laws/reach.ts): another law answers 404 as the laws API does.
    if (!(await organisationFollowsLaw(api.database, token.organizationId, params.id))) throw new ApiError(404);
    const filters = { ...parseObligationFilters(new URLSearchParams()), lawId: params.id };
    const rows = await listObligations(api.database.db, token.organizationId, filters);
    return rows.map(({ sourceId: _s, documentTitle: _t, ...obligation }) => obligation);
  }),
  handle(createLawObligationOperation, async ({ params, body, token, api, info, request, locale }) => {
    const actor = await tokenTriageActor(api.database, token, {
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
    });
    const outcome = await createLawObligation(api.database.db, actor, params.id, body, locale);
    if (!outcome.ok) {
      if (outcome.error === "not_found") throw new ApiError(404);
      throw new ApiError(422, { fieldErrors: outcome.errors });
    }
    return outcome.obligation;
  }),
);

export const loader = route.loader;
export const action = route.action;
