import { apiRoute, handle } from "../../.server/api/handler";
import { listTriageOperation } from "../../.server/api/operations/triage";
import { parseTriageFilters } from "../../.server/triage/filters";
import { listTriage } from "../../.server/triage/list";

const route = apiRoute(
  handle(listTriageOperation, async ({ token, api, request }) => {
    // The operation's query schema validated the values; the page's parser reads them (one reading for both).
    const filters = parseTriageFilters(new URL(request.url).searchParams);
    return listTriage(api.database.db, { organizationId: token.organizationId, userId: token.createdBy }, filters);
  }),
);

export const loader = route.loader;
export const action = route.action;
