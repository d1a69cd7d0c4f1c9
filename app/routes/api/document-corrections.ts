import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { correctDocumentOperation, listDocumentCorrectionsOperation } from "../../.server/api/operations/corrections";
import { correctViaApi, documentCorrectionsViaApi } from "../../.server/documents/corrections-api";

const route = apiRoute(
  handle(listDocumentCorrectionsOperation, async ({ params, token, api }) => {
    const list = await documentCorrectionsViaApi(api.database, token.organizationId, params.id);
    if (!list) throw new ApiError(404);
    return list;
  }),
  handle(correctDocumentOperation, async ({ params, body, token, api, services, info, request, locale }) => {
    const outcome = await correctViaApi(
      api.database,
      {
        organizationId: token.organizationId,
        tokenId: token.tokenId,
        createdBy: token.createdBy,
        ip: info.clientIp,
        userAgent: request.headers.get("user-agent") ?? undefined,
      },
      params.id,
      body,
      locale,
      (documentId) => services.alerts.queueMatch(documentId),
    );
    if (!outcome.ok) {
      if (outcome.error === "not_found") throw new ApiError(404);
      throw new ApiError(422, { fieldErrors: { [outcome.field]: [outcome.message] } });
    }
    return { correction: outcome.correction, undone: outcome.undone, areas: outcome.areas };
  }),
);

export const loader = route.loader;
export const action = route.action;
