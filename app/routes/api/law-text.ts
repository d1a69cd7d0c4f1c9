import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { lawTextOperation } from "../../.server/api/operations/laws";
import { lawTextAt } from "../../.server/laws/api";
import { madridDate } from "../../lib/madrid-date";

const route = apiRoute(
  handle(lawTextOperation, async ({ api, params, query, token }) => {
    // The query's date is checked by the operation's schema (a day that exists, or 422).
    const text = await lawTextAt(api.database, token.organizationId, params.id, query.date ?? madridDate());
    if (!text) throw new ApiError(404);
    return text;
  }),
);

export const loader = route.loader;
export const action = route.action;
