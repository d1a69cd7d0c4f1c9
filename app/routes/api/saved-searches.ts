import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { createSavedSearchOperation, listSavedSearchesOperation } from "../../.server/api/operations/saved-searches";
import { tokenActor } from "../../.server/api/tokens";
import { recordAudit } from "../../.server/audit/record";
import {
  createSavedSearch,
  listSavedSearches,
  maxSavedSearchesPerMember,
  normaliseFilters,
} from "../../.server/searches/saved";
import { savedSearchApiView } from "../../.server/searches/view";
import { saved as en } from "../../i18n/en/saved";
import { saved as es } from "../../i18n/es/saved";
import { fillTemplate as fill } from "../../lib/fill-template";

const route = apiRoute(
  handle(listSavedSearchesOperation, async ({ api, token, info, request }) => {
    const owner = { organizationId: token.organizationId, userId: token.createdBy };
    const items = (await listSavedSearches(api.database.db, owner)).map(savedSearchApiView);
    // A member's data read through a token: audited with the token's creator as actor.
    await recordAudit(api.database.db, {
      organizationId: token.organizationId,
      actor: tokenActor(token),
      action: "saved_search.listed",
      object: null,
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      detail: { tokenId: token.tokenId, searches: items.length },
    });
    return { items };
  }),
  handle(createSavedSearchOperation, async ({ api, token, body, locale, info, request }) => {
    const t = (locale === "en" ? en : es).searches.errors;
    const outcome = await createSavedSearch(
      api.database.db,
      { organizationId: token.organizationId, userId: token.createdBy },
      { name: body.name, filters: normaliseFilters(body.filters) },
      {
        actor: tokenActor(token),
        ip: info.clientIp,
        userAgent: request.headers.get("user-agent") ?? undefined,
        tokenId: token.tokenId,
      },
    );
    if ("problem" in outcome) {
      const field = outcome.problem === "empty" ? "filters" : "name";
      throw new ApiError(422, {
        fieldErrors: { [field]: [fill(t[outcome.problem], { max: maxSavedSearchesPerMember })] },
      });
    }
    return savedSearchApiView(outcome.saved);
  }),
);

export const loader = route.loader;
export const action = route.action;
