import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { getDocumentOperation } from "../../.server/api/operations/documents";
import { getDocument } from "../../.server/documents/search";
import { documentDetailView } from "../../.server/documents/view";

const route = apiRoute(
  handle(getDocumentOperation, async ({ params, token, api }) => {
    const detail = await getDocument(api.database, params.id, token.organizationId);
    if (!detail) throw new ApiError(404);
    return documentDetailView(detail);
  }),
);

export const loader = route.loader;
export const action = route.action;
