import { createWebhook, listWebhooks } from "../../.server/alerts/webhooks";
import { apiRoute, handle } from "../../.server/api/handler";
import { createWebhookOperation, listWebhooksOperation } from "../../.server/api/operations/webhooks";
import { recordAudit } from "../../.server/audit/record";

const route = apiRoute(
  handle(createWebhookOperation, ({ body, token, api, info, request }) =>
    api.database.db.transaction(async (tx) => {
      const webhook = await createWebhook(tx, token.organizationId, body);
      await recordAudit(tx, {
        organizationId: token.organizationId,
        actor: null,
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
