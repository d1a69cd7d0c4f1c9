import { deleteWebhook, disableWebhook, enableWebhook } from "../../.server/alerts/webhooks";
import { defaultDeliverySettings } from "../../.server/alerts/worker";
import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { deleteWebhookOperation, updateWebhookOperation } from "../../.server/api/operations/webhooks";
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
  handle(updateWebhookOperation, ({ params, body, token, api, info, request }) =>
    api.database.db.transaction(async (tx) => {
      const windowMs = api.outbound.retryWindowMs ?? defaultDeliverySettings.retryWindowMs;
      const changed = body.enabled
        ? await enableWebhook(tx, token.organizationId, params.id, windowMs)
        : await disableWebhook(tx, token.organizationId, params.id).then(
            (webhook) => webhook && { webhook, requeued: 0 },
          );
      if (!changed) throw new ApiError(404);
      await recordAudit(tx, {
        organizationId: token.organizationId,
        actor: tokenActor(token),
        action: body.enabled ? "webhook.enabled" : "webhook.disabled",
        object: { type: "webhook", id: params.id },
        ip: info.clientIp,
        userAgent: request.headers.get("user-agent") ?? undefined,
        detail: { tokenId: token.tokenId, requeued: changed.requeued },
      });
      return { ...changed.webhook, requeued: changed.requeued };
    }),
  ),
);

export const loader = route.loader;
export const action = route.action;
