import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { runSourceOperation } from "../../.server/api/operations/sources";
import { tokenActor } from "../../.server/api/tokens";
import { requestSourceRun } from "../../.server/sources/admin";

const offMessage = {
  es: "La ingesta está desactivada en este servidor (INGEST_SOURCES=none): no se puede ejecutar ahora.",
  en: "Ingestion is turned off on this server (INGEST_SOURCES=none): nothing can run now.",
} as const;

const route = apiRoute(
  handle(runSourceOperation, async ({ params, token, api, services, info, request, locale }) => {
    const outcome = await requestSourceRun(
      api.database.db,
      services.ingestJobs,
      (services.config?.sources.ingest.length ?? 0) > 0,
      token.organizationId,
      params.id,
      {
        actor: tokenActor(token),
        ip: info.clientIp,
        userAgent: request.headers.get("user-agent") ?? undefined,
        detail: { via: "api_token", tokenId: token.tokenId },
      },
    );
    if (outcome.status === "not_found") throw new ApiError(404);
    if (outcome.status === "off") throw new ApiError(503, { message: offMessage[locale] });
    return { id: params.id, jobId: outcome.jobId };
  }),
);

export const loader = route.loader;
export const action = route.action;
