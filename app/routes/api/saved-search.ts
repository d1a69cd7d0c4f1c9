import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { deleteSavedSearchOperation } from "../../.server/api/operations/saved-searches";
import { tokenActor } from "../../.server/api/tokens";
import { deleteSavedSearch } from "../../.server/searches/saved";

const route = apiRoute(
  handle(deleteSavedSearchOperation, async ({ api, token, params, info, request }) => {
    const removed = await deleteSavedSearch(
      api.database.db,
      { organizationId: token.organizationId, userId: token.createdBy },
      params.id,
      {
        actor: tokenActor(token),
        ip: info.clientIp,
        userAgent: request.headers.get("user-agent") ?? undefined,
        tokenId: token.tokenId,
      },
    );
    if (!removed) throw new ApiError(404);
  }),
);

export const loader = route.loader;
export const action = route.action;
