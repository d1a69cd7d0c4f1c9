import { apiRoute, handle } from "../../.server/api/handler";
import { listSourcesOperation } from "../../.server/api/operations/sources";
import { listSources } from "../../.server/sources/admin";

const route = apiRoute(
  handle(listSourcesOperation, async ({ token, api }) =>
    (await listSources(api.database.db, token.organizationId)).map((source) => ({
      id: source.id,
      lastSuccessAt: source.lastSuccessAt?.toISOString() ?? null,
      lastError: source.lastError,
      lastErrorKind: source.lastErrorKind,
      lastErrorPast: source.lastErrorPast,
      documentsToday: source.documentsToday,
    })),
  ),
);

export const loader = route.loader;
export const action = route.action;
