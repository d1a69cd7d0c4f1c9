import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { createFollowOperation, listFollowsOperation } from "../../.server/api/operations/laws";
import { tokenActor } from "../../.server/api/tokens";
import { recordAudit } from "../../.server/audit/record";
import { groupOfOrganisation } from "../../.server/laws/api";
import { createFollow, followView, listOrganisationFollows } from "../../.server/laws/follows";
import { lawAlerts as en } from "../../i18n/en/law-alerts";
import { lawAlerts as es } from "../../i18n/es/law-alerts";
import { fillTemplate as fill } from "../../lib/fill-template";

const route = apiRoute(
  handle(listFollowsOperation, async ({ api, token, info, request }) => {
    const follows = await listOrganisationFollows(api.database, token.organizationId);
    await recordAudit(api.database.db, {
      organizationId: token.organizationId,
      actor: tokenActor(token),
      action: "follow.listed",
      object: null,
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      detail: { tokenId: token.tokenId, follows: follows.length },
    });
    return follows.map(followView);
  }),
  handle(createFollowOperation, async ({ api, token, body, locale, info, request }) => {
    const l = (locale === "en" ? en : es).errors;
    if (body.groupId && !(await groupOfOrganisation(api.database, token.organizationId, body.groupId)))
      throw new ApiError(422, { fieldErrors: { groupId: [l.badGroup] } });
    const outcome = await createFollow(
      api.database,
      token.organizationId,
      {
        lawId: body.lawId,
        blockIds: body.blockIds ?? [],
        ...(body.groupId ? { groupId: body.groupId } : { userId: token.createdBy }),
        ...(body.name ? { name: body.name } : {}),
        emailMode: body.emailMode ?? "off",
        language: locale === "en" ? "en" : "es",
      },
      api.maxFollowsPerOrganization,
    );
    if ("problem" in outcome) {
      const field = outcome.problem === "badBlocks" ? "blockIds" : "lawId";
      const message = fill(l[outcome.problem], { limit: api.maxFollowsPerOrganization });
      throw new ApiError(422, { fieldErrors: { [field]: [message] } });
    }
    await recordAudit(api.database.db, {
      organizationId: token.organizationId,
      actor: tokenActor(token),
      action: "follow.created",
      object: { type: "follow", id: outcome.follow.id },
      ip: info.clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      detail: { tokenId: token.tokenId, lawId: outcome.follow.lawId, blockIds: outcome.follow.blockIds },
    });
    return followView(outcome.follow);
  }),
);

export const loader = route.loader;
export const action = route.action;
