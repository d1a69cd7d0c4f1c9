import { apiRoute, handle } from "../../.server/api/handler";
import { verifyAuditOperation } from "../../.server/api/operations/audit";
import { verifyAuditChain } from "../../.server/audit/verify";

const route = apiRoute(
  handle(verifyAuditOperation, ({ token, api }) => verifyAuditChain(api.database.db, token.organizationId)),
);

export const loader = route.loader;
export const action = route.action;
