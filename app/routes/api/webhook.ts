import { deleteWebhook } from "../../.server/alerts/webhooks";
import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { deleteWebhookOperation } from "../../.server/api/operations/webhooks";
import { tokenActor } from "../../.server/api/tokens";
import { recordAudit } from "../../.server/audit/record";

const route = apiRoute(
  handle(deleteWebhookOperation, ({ params, token, api, info, request }) =>
    api.database.db.transaction(async (tx) => {
      if (!(await deleteWebhook(tx, token.organizationId, params.id))) throw new ApiError(404);
      await recordAudit(tx, {
        organizationId: token.organizationId,
        actor: tokenActor(token),
        action: "webhook.deleted",
        object: { type: "webhook", id: params.id },
        ip: info.clientIp,
        userAgent: request.headers.get("user-agent") ?? undefined,
        detail: { tokenId: token.tokenId },
      });
    }),
  ),
);

export const loader = route.loader;
export const action = route.action;
