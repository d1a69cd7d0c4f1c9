import { apiRoute, handle } from "../../.server/api/handler";
import { listLawsOperation } from "../../.server/api/operations/laws";
import { listLaws } from "../../.server/laws/api";

const route = apiRoute(
  handle(listLawsOperation, async ({ api, token }) => ({ items: await listLaws(api.database, token.organizationId) })),
);

export const loader = route.loader;
export const action = route.action;
