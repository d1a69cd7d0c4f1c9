import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { deleteFollowOperation } from "../../.server/api/operations/laws";
import { tokenActor } from "../../.server/api/tokens";
import { recordAudit } from "../../.server/audit/record";
import { deleteFollow } from "../../.server/laws/follows";

const route = apiRoute(
  handle(deleteFollowOperation, async ({ api, token, params, info, request }) => {
    const removed = /^[0-9a-f-]{36}$/i.test(params.id)
      ? await deleteFollow(api.database, token.organizationId, params.id)
      : undefined;
    if (!removed) throw new ApiError(404);
    await recordAudit(api.database.db, {
      organizationId: token.organizationId,
      actor: tokenActor(token),
      action: "follow.deleted",
      object: { type: "follow", id: params.id },
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      detail: { tokenId: token.tokenId, lawId: removed.lawId },
    });
  }),
);

export const loader = route.loader;
export const action = route.action;
