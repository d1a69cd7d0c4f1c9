import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { getLawOperation } from "../../.server/api/operations/laws";
import { lawDetail } from "../../.server/laws/api";

const route = apiRoute(
  handle(getLawOperation, async ({ api, params, token }) => {
    const law = await lawDetail(api.database, token.organizationId, params.id, { ingesting: api.ingesting });
    if (!law) throw new ApiError(404);
    return law;
  }),
);

export const loader = route.loader;
export const action = route.action;
