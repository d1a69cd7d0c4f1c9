import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { getObligationOperation, patchObligationOperation } from "../../.server/api/operations/triage";
import { tokenTriageActor } from "../../.server/triage/api";
import { getObligation, obligationHistoryOf, updateObligation } from "../../.server/triage/obligations";

const route = apiRoute(
  handle(getObligationOperation, async ({ params, token, api }) => {
    const obligation = await getObligation(api.database.db, token.organizationId, params.id);
    if (!obligation) throw new ApiError(404);
    return { ...obligation, history: await obligationHistoryOf(api.database.db, token.organizationId, params.id) };
  }),
  handle(patchObligationOperation, async ({ params, body, token, api, info, request, locale }) => {
    const actor = await tokenTriageActor(api.database, token, {
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
    });
    const outcome = await updateObligation(api.database.db, actor, params.id, body, locale);
    if (!outcome.ok) {
      if (outcome.error === "not_found") throw new ApiError(404);
      throw new ApiError(422, { fieldErrors: outcome.errors });
    }
    return outcome.obligation;
  }),
);

export const loader = route.loader;
export const action = route.action;
