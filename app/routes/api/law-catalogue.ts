import { apiRoute, handle } from "../../.server/api/handler";
import { searchCatalogueOperation } from "../../.server/api/operations/law-catalogue";
import { searchCatalogue } from "../../.server/laws/catalogue";

const route = apiRoute(
  handle(searchCatalogueOperation, async ({ query, api, locale }) =>
    searchCatalogue(
      api.database,
      { q: query.q, source: query.source, limit: query.limit, offset: query.offset },
      query.lang ?? locale,
    ),
  ),
);

export const loader = route.loader;
export const action = route.action;
