import { apiRoute, handle } from "../../.server/api/handler";
import { taxonomyOperation } from "../../.server/api/operations/taxonomy";
import { taxonomyResponse } from "../../lib/taxonomy";

const route = apiRoute(handle(taxonomyOperation, () => taxonomyResponse()));

export const loader = route.loader;
export const action = route.action;
