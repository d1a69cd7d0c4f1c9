import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { decideObligationReviewOperation, getObligationReviewOperation } from "../../.server/api/operations/triage";
import { tokenTriageActor } from "../../.server/triage/api";
import { decideReview, reviewView } from "../../.server/triage/reviews";

const route = apiRoute(
  handle(getObligationReviewOperation, async ({ params, token, api }) => {
    const view = await reviewView(api.database.db, token.organizationId, params.id);
    if (!view) throw new ApiError(404);
    return view;
  }),
  handle(decideObligationReviewOperation, async ({ params, body, token, api, info, request, locale }) => {
    const actor = await tokenTriageActor(api.database, token, {
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
    });
    const outcome = await decideReview(api.database.db, actor, params.id, body, locale);
    if (!outcome.ok) {
      if (outcome.error === "not_found") throw new ApiError(404);
      throw new ApiError(422, { fieldErrors: outcome.errors });
    }
    return { obligation: outcome.obligation, review: outcome.review };
  }),
);

export const loader = route.loader;
export const action = route.action;
