import { webhookLimitMessage, webhookSlotFree } from "../../.server/alerts/webhook-quota";
import { createWebhook, listWebhooks } from "../../.server/alerts/webhooks";
import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { createWebhookOperation, listWebhooksOperation } from "../../.server/api/operations/webhooks";
import { tokenActor } from "../../.server/api/tokens";
import { recordAudit } from "../../.server/audit/record";

const route = apiRoute(
  handle(createWebhookOperation, ({ body, token, api, info, request, locale }) =>
    api.database.db.transaction(async (tx) => {
      const limit = api.outbound.maxWebhooksPerOrganization;
      if (!(await webhookSlotFree(tx, token.organizationId, limit))) {
        throw new ApiError(422, { message: webhookLimitMessage(locale, limit) });
      }
      const webhook = await createWebhook(tx, token.organizationId, body);
      await recordAudit(tx, {
        organizationId: token.organizationId,
        actor: tokenActor(token),
        action: "webhook.created",
        object: { type: "webhook", id: webhook.id },
        ip: info.clientIp,
        userAgent: request.headers.get("user-agent") ?? undefined,
        detail: { tokenId: token.tokenId, url: webhook.url },
      });
      return webhook;
    }),
  ),
  handle(listWebhooksOperation, ({ token, api }) => listWebhooks(api.database.db, token.organizationId)),
);

export const loader = route.loader;
export const action = route.action;
