import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { getTriageOperation, putTriageOperation } from "../../.server/api/operations/triage";
import { tokenTriageActor, triageWithHistory } from "../../.server/triage/api";
import { updateTriage } from "../../.server/triage/store";

const route = apiRoute(
  handle(getTriageOperation, async ({ params, token, api }) => {
    const found = await triageWithHistory(api.database, token.organizationId, params.id);
    if (!found) throw new ApiError(404);
    return found;
  }),
  handle(putTriageOperation, async ({ params, body, token, api, info, request, locale }) => {
    const actor = await tokenTriageActor(api.database, token, {
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
    });
    const outcome = await updateTriage(api.database.db, actor, params.id, body, locale);
    if (!outcome.ok) {
      if (outcome.error === "not_found") throw new ApiError(404);
      throw new ApiError(422, { fieldErrors: outcome.errors });
    }
    return { triage: outcome.item, changes: outcome.changes };
  }),
);

export const loader = route.loader;
export const action = route.action;
