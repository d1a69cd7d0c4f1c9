/**
 * The pages' side of article-anchored obligations (issue 39): the form that records one from the
 * law page (/app/laws/:id/obligations/new?block=&version=) and the review page's decision
 * (/app/obligations/:id/review). No-JS forms, turned into the services' input; errors in the
 * member's language.
 */
import type { Locale } from "../../i18n/locales.ts";
import type { MemberInfo } from "../auth/permissions.ts";
import type { Database, Db } from "../db/client.ts";
import { paragraphsOfVersion } from "../law-texts/diff.ts";
import { versionsOf } from "../law-texts/model.ts";
import { loadBlocks, loadLaw, loadVersions } from "../law-texts/store.ts";
import { anchorOf } from "../laws/page.ts";
import { organisationFollowsLaw } from "../laws/reach.ts";
import { fieldErrors, triageText } from "./messages.ts";
import { createLawObligation, lawObligationCreateSchema } from "./obligations.ts";
import { actorOf, assigneeOf, blankToNull, values } from "./page.ts";
import { organisationGroups, organisationMembers } from "./people.ts";
import { decideReview, reviewDecisionSchema } from "./reviews.ts";

type Origin = { ip?: string | undefined; userAgent?: string | undefined };

export type FormOutcome =
  | { ok: true; obligationId: string }
  | { ok: false; errors: Record<string, string[]>; values: Record<string, string>; status: 422 }
  | null;

/** What the new-obligation form shows: the law, the article, the version anchored and its wording; undefined: 404. */
export async function lawObligationFormView(
  database: Database,
  organizationId: string,
  lawId: string,
  blockId: string,
  normId: string | null,
) {
  if (!(await organisationFollowsLaw(database, organizationId, lawId))) return undefined;
  const law = await loadLaw(database, lawId);
  if (!law) return undefined;
  const block = (await loadBlocks(database, lawId)).find((b) => b.blockId === blockId);
  if (!block) return undefined;
  const versions = versionsOf({ versions: await loadVersions(database, lawId, blockId) });
  const version = normId ? versions.filter((v) => v.normId === normId).at(-1) : versions.at(-1);
  if (!version) return undefined;
  const [members, groups] = await Promise.all([
    organisationMembers(database.db, organizationId),
    organisationGroups(database.db, organizationId),
  ]);
  return {
    law: { id: law.id, title: law.title },
    block: { blockId: block.blockId, title: block.title || block.blockId, anchor: anchorOf(block.blockId) },
    version: {
      normId: version.normId,
      publishedOn: version.publishedOn,
      inForceOn: version.inForceOn,
      paragraphs: paragraphsOfVersion(version),
    },
    people: { members: members.map((m) => ({ id: m.id, name: m.name })), groups },
  };
}

export async function lawObligationFormAction(
  deps: { db: Db; member: MemberInfo; locale: Locale; lawId: string; origin: Origin },
  form: FormData,
): Promise<FormOutcome> {
  const t = triageText[deps.locale];
  const raw = values(form, ["block", "version", "title", "description", "owner", "dueOn", "reference"]);
  const owner = assigneeOf(raw.owner ?? "");
  if (owner === false) return { ok: false, errors: { owner: [t.assignee] }, values: raw, status: 422 };
  const parsed = lawObligationCreateSchema(deps.locale).safeParse({
    block: raw.block ?? "",
    ...(raw.version ? { version: raw.version } : {}),
    title: raw.title ?? "",
    description: raw.description ?? "",
    owner,
    dueOn: blankToNull(raw.dueOn) ?? null,
    reference: raw.reference ?? "",
  });
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error.issues), values: raw, status: 422 };
  const outcome = await createLawObligation(
    deps.db,
    actorOf(deps.member, deps.origin),
    deps.lawId,
    parsed.data,
    deps.locale,
  );
  if (!outcome.ok) {
    if (outcome.error === "not_found") return null;
    return { ok: false, errors: outcome.errors, values: raw, status: 422 };
  }
  return { ok: true, obligationId: outcome.obligation.id };
}

export async function reviewFormAction(
  deps: { db: Db; member: MemberInfo; locale: Locale; obligationId: string; origin: Origin },
  form: FormData,
): Promise<FormOutcome> {
  const raw = values(form, ["decision", "text", "note"]);
  const parsed = reviewDecisionSchema(deps.locale).safeParse({
    decision: raw.decision ?? "",
    note: raw.note ?? "",
    ...(raw.text?.trim() ? { text: raw.text } : {}),
  });
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error.issues), values: raw, status: 422 };
  const outcome = await decideReview(
    deps.db,
    actorOf(deps.member, deps.origin),
    deps.obligationId,
    parsed.data,
    deps.locale,
  );
  if (!outcome.ok) {
    if (outcome.error === "not_found") return null;
    return { ok: false, errors: outcome.errors, values: raw, status: 422 };
  }
  return { ok: true, obligationId: deps.obligationId };
}
