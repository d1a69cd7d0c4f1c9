import { getWebhook, webhookDeliveries } from "../../.server/alerts/webhooks";
import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { listWebhookDeliveriesOperation } from "../../.server/api/operations/webhooks";

const route = apiRoute(
  handle(listWebhookDeliveriesOperation, async ({ params, token, api }) => {
    const db = api.database.db;
    if (!(await getWebhook(db, token.organizationId, params.id))) throw new ApiError(404);
    return webhookDeliveries(db, token.organizationId, params.id, 50);
  }),
);

export const loader = route.loader;
