import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { listDocumentsOperation } from "../../.server/api/operations/documents";
import { SearchParamsError, searchDocuments } from "../../.server/documents/search";
import { documentView } from "../../.server/documents/view";

const route = apiRoute(
  handle(listDocumentsOperation, async ({ query, token, api, locale }) => {
    try {
      const result = await searchDocuments(api.database, {
        ...query,
        facets: false,
        organizationId: token.organizationId,
      });
      return { items: result.items.map(documentView), nextCursor: result.nextCursor };
    } catch (error) {
      if (error instanceof SearchParamsError) {
        throw new ApiError(422, { fieldErrors: { cursor: [locale === "es" ? "Cursor no válido" : "Invalid cursor"] } });
      }
      throw error;
    }
  }),
);

export const loader = route.loader;
export const action = route.action;
