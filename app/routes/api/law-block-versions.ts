import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { blockVersionsOperation } from "../../.server/api/operations/laws";
import { blockVersions } from "../../.server/laws/api";

const route = apiRoute(
  handle(blockVersionsOperation, async ({ api, params, token }) => {
    const found = await blockVersions(api.database, token.organizationId, params.id, params.blockId);
    if (!found) throw new ApiError(404);
    return found;
  }),
);

export const loader = route.loader;
export const action = route.action;
