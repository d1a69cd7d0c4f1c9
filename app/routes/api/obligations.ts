import { apiRoute, handle } from "../../.server/api/handler";
import { listObligationsOperation } from "../../.server/api/operations/triage";
import { tokenActor } from "../../.server/api/tokens";
import { exportObligations } from "../../.server/triage/api";
import { obligationsCsv, parseObligationFilters } from "../../.server/triage/obligations";

const route = apiRoute(
  handle(listObligationsOperation, async ({ query, token, api, info, request }) => {
    const format = query.format ?? "json";
    const rows = await exportObligations(
      api.database,
      {
        organizationId: token.organizationId,
        actor: tokenActor(token),
        detail: { via: "api_token", tokenId: token.tokenId },
      },
      { ip: info.clientIp, userAgent: request.headers.get("user-agent") ?? undefined },
      parseObligationFilters(new URL(request.url).searchParams),
      format,
    );
    if (format === "json") return rows;
    const day = new Date().toISOString().slice(0, 10);
    return new Response(obligationsCsv(rows), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="obligations-${day}.csv"`,
      },
    });
  }),
);

export const loader = route.loader;
export const action = route.action;
