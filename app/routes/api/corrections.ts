import { apiRoute, handle } from "../../.server/api/handler";
import { listCorrectionsOperation } from "../../.server/api/operations/corrections";
import { tokenActor } from "../../.server/api/tokens";
import { correctionsCsv } from "../../.server/documents/corrections";
import { exportCorrections } from "../../.server/documents/corrections-api";

const route = apiRoute(
  handle(listCorrectionsOperation, async ({ query, token, api, info, request }) => {
    const format = query.format ?? "json";
    const rows = await exportCorrections(
      api.database,
      {
        organizationId: token.organizationId,
        actor: tokenActor(token),
        detail: { via: "api_token", tokenId: token.tokenId },
      },
      { ip: info.clientIp, userAgent: request.headers.get("user-agent") ?? undefined },
      format,
    );
    if (format === "json") return rows;
    const day = new Date().toISOString().slice(0, 10);
    return new Response(correctionsCsv(rows), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="corrections-${day}.csv"`,
      },
    });
  }),
);

export const loader = route.loader;
export const action = route.action;
