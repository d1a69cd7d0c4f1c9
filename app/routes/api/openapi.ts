import { apiRoute, handle } from "../../.server/api/handler";
import { openApiDocument } from "../../.server/api/openapi-document";
import { openApiOperation } from "../../.server/api/operations/meta";

const route = apiRoute(handle(openApiOperation, ({ api }) => openApiDocument(api.siteUrl)));

export const loader = route.loader;
export const action = route.action;
