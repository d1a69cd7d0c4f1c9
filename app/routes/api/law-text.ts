import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { lawTextOperation } from "../../.server/api/operations/laws";
import { lawTextAt } from "../../.server/laws/api";
import { lawAlerts as en } from "../../i18n/en/law-alerts";
import { lawAlerts as es } from "../../i18n/es/law-alerts";
import { madridDate } from "../../lib/madrid-date";

const route = apiRoute(
  handle(lawTextOperation, async ({ api, params, query, locale }) => {
    const date = query.date ?? madridDate();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
      throw new ApiError(422, { fieldErrors: { date: [(locale === "en" ? en : es).errors.badDate] } });
    }
    const text = await lawTextAt(api.database, params.id, date);
    if (!text) throw new ApiError(404);
    return text;
  }),
);

export const loader = route.loader;
export const action = route.action;
