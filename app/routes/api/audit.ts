import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { auditFiltersFromQuery, listAuditOperation } from "../../.server/api/operations/audit";
import { tokenActor } from "../../.server/api/tokens";
import { exportAuditCsv, exportAuditJson } from "../../.server/audit/export";
import { InvalidCursorError } from "../../.server/audit/query";

const route = apiRoute(
  handle(listAuditOperation, async ({ query, token, api, info, request, locale }) => {
    const exportRequest = {
      organizationId: token.organizationId,
      filters: auditFiltersFromQuery(query),
      by: {
        actor: tokenActor(token),
        ip: info.clientIp,
        userAgent: request.headers.get("user-agent") ?? undefined,
        detail: { via: "api_token", tokenId: token.tokenId },
      },
    };
    try {
      if (query.format === "json") return await exportAuditJson(api.database.db, exportRequest);
      const { csv } = await exportAuditCsv(api.database.db, exportRequest);
      const day = new Date().toISOString().slice(0, 10);
      return new Response(csv, {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="audit-${day}.csv"`,
        },
      });
    } catch (error) {
      if (error instanceof InvalidCursorError) {
        throw new ApiError(422, {
          fieldErrors: { cursor: [locale === "es" ? "Cursor no válido" : "Invalid cursor"] },
        });
      }
      throw error;
    }
  }),
);

export const loader = route.loader;
export const action = route.action;
