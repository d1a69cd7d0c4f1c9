import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { getDocumentOperation } from "../../.server/api/operations/documents";
import { tokenActor } from "../../.server/api/tokens";
import { recordAudit } from "../../.server/audit/record";
import { documentChanges } from "../../.server/documents/changes";
import { getDocument } from "../../.server/documents/search";
import { documentDetailView } from "../../.server/documents/view";
import { listOrganisationFollows } from "../../.server/laws/follows";

const route = apiRoute(
  handle(getDocumentOperation, async ({ params, token, api, info, request }) => {
    const detail = await getDocument(api.database, params.id, token.organizationId);
    if (!detail) throw new ApiError(404);
    // A read through the API is a read like the page's: audited, the token's creator as actor.
    await recordAudit(api.database.db, {
      organizationId: token.organizationId,
      actor: tokenActor(token),
      action: "document.read",
      object: { type: "document", id: detail.id },
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      detail: { source: detail.source, sourceId: detail.sourceId, tokenId: token.tokenId, via: "api" },
    });
    // A token speaks for its organisation: the laws it follows are both reached and followed.
    const followed = new Set((await listOrganisationFollows(api.database, token.organizationId)).map((f) => f.lawId));
    return documentDetailView(detail, await documentChanges(api.database, detail.id, { reached: followed, followed }));
  }),
);

export const loader = route.loader;
export const action = route.action;
