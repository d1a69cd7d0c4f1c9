import { ApiError } from "../../.server/api/errors";
import { apiRoute, handle } from "../../.server/api/handler";
import { lawCompareOperation } from "../../.server/api/operations/law-compare";
import { compareVersions } from "../../.server/laws/compare-page";
import { organisationFollowsLaw } from "../../.server/laws/reach";

const route = apiRoute(
  handle(lawCompareOperation, async ({ params, query, api, token }) => {
    // Outside the organisation's follows: 404, as a law the platform does not hold (reach.ts).
    if (!(await organisationFollowsLaw(api.database, token.organizationId, params.id))) throw new ApiError(404);
    const result = await compareVersions(api.database, params.id, query);
    // A law or block not held, a version not among the block's, a block with one version: not found.
    if ("problem" in result) throw new ApiError(404);
    const { view } = result;
    const version = (v: typeof view.from) => ({
      normId: v.normId,
      publishedOn: v.publishedOn,
      inForceOn: v.inForceOn,
      url: v.href,
    });
    return {
      lawId: view.law.id,
      blockId: view.block.blockId,
      title: view.block.title,
      from: version(view.from),
      to: version(view.to),
      identical: view.diff.identical,
      insertedWords: view.diff.insertedWords,
      deletedWords: view.diff.deletedWords,
      changedParagraphs: view.diff.changedParagraphs,
      rows: view.diff.rows,
    };
  }),
);

export const loader = route.loader;
export const action = route.action;
