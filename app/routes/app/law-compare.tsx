import { data, Form, Link } from "react-router";
import { appLocale, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { compareVersions } from "../../.server/laws/compare-page";
import { organisationFollowsLaw } from "../../.server/laws/reach";
import { formatDay } from "../../components/app/documents/labels";
import { blockTitle, formatLawDate, lawsMessages } from "../../components/app/laws/messages";
import { DiffLegend, InlineDiff, SideBySideDiff } from "../../components/app/laws/word-diff";
import { fill } from "../../components/app/messages";
import type { Locale } from "../../i18n/locales";
import { plural } from "../../lib/plural";
import type { Route } from "./+types/law-compare";

export const handle = { layout: "bare" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const locale = appLocale(context);
  const database = context.get(servicesContext).api.database;
  // The organisation's followed laws only (reach.ts), as the law page and the API.
  if (!(await organisationFollowsLaw(database, member.organizationId, params.id))) {
    throw data("Not found", { status: 404 });
  }
  const url = new URL(request.url);
  const result = await compareVersions(database, params.id, {
    block: url.searchParams.get("block"),
    from: url.searchParams.get("from"),
    to: url.searchParams.get("to"),
  });
  if ("problem" in result && result.problem === "law") throw data("Not found", { status: 404 });
  const side = url.searchParams.get("view") === "side";
  if ("problem" in result) {
    return data(
      { locale, lawId: params.id, side, view: null, problem: result.problem, query: url.search },
      { status: result.problem === "block" || result.problem === "version" ? 404 : 200 },
    );
  }
  return { locale, lawId: params.id, side, view: result.view, problem: null, query: url.search };
}

export default function LawCompare({ loaderData }: Route.ComponentProps) {
  const { locale, lawId, side, view, problem } = loaderData;
  const t = lawsMessages(locale);
  const c = t.compare;
  const lawPath = `/app/laws/${encodeURIComponent(lawId)}`;
  const versionLabel = (v: { normId: string; publishedOn: string; inForceOn: string | null }) =>
    fill(c.version, {
      norm: v.normId,
      published: formatLawDate(v.publishedOn, locale),
      inForce: v.inForceOn ? formatLawDate(v.inForceOn, locale) : c.noInForce,
    });
  if (!view) {
    return (
      <>
        <h1 className="h3">{c.title}</h1>
        <div className="alert alert-warning" role="alert">
          {problem ? c.problems[problem as keyof typeof c.problems] : null}
        </div>
        <Link to={lawPath}>{c.back}</Link>
      </>
    );
  }
  const params = (next: Record<string, string>) =>
    `?${new URLSearchParams({ block: view.block.blockId, from: view.from.normId, to: view.to.normId, ...next })}`;
  return (
    <>
      <p className="small mb-1 law-no-print">
        <Link
          to={`${lawPath}?${new URLSearchParams({ block: view.block.blockId })}#b-${view.block.blockId.replace(/[^A-Za-z0-9_-]/g, "_")}`}
        >
          {c.back}
        </Link>
      </p>
      <p className="small text-body-secondary mb-1">{view.law.title}</p>
      <h1 className="h3">
        {c.title}: {blockTitle(view.block.title, locale)}
      </h1>
      <p className="text-body-secondary">{fill(c.lead, { block: blockTitle(view.block.title, locale) })}</p>
      <Form method="get" className="row g-2 align-items-end mb-3 law-no-print">
        <div className="col-12 col-lg-4">
          <label htmlFor="cmp-block" className="form-label">
            {c.block}
          </label>
          <select id="cmp-block" name="block" className="form-select" defaultValue={view.block.blockId}>
            {view.comparable.map((b) => (
              <option key={b.blockId} value={b.blockId}>
                {blockTitle(b.title, locale)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-12 col-md-6 col-lg-4">
          <label htmlFor="cmp-from" className="form-label">
            {c.from}
          </label>
          <select id="cmp-from" name="from" className="form-select" defaultValue={view.from.normId}>
            {view.versions.map((v) => (
              <option key={v.normId} value={v.normId}>
                {versionOption(v, locale)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-12 col-md-6 col-lg-4">
          <label htmlFor="cmp-to" className="form-label">
            {c.to}
          </label>
          <select id="cmp-to" name="to" className="form-select" defaultValue={view.to.normId}>
            {view.versions.map((v) => (
              <option key={v.normId} value={v.normId}>
                {versionOption(v, locale)}
              </option>
            ))}
          </select>
        </div>
        {side ? <input type="hidden" name="view" value="side" /> : null}
        {/* Its own line: the version lists keep the whole width of a third each (issue 40: they were cut). */}
        <div className="col-12 col-sm-auto">
          <button type="submit" className="btn btn-primary w-100">
            {c.submit}
          </button>
        </div>
      </Form>
      <dl className="small mb-2">
        <dt>{c.before}</dt>
        <dd>
          <a href={view.from.href} rel="noopener noreferrer">
            {versionLabel(view.from)}
          </a>
        </dd>
        <dt>{c.after}</dt>
        <dd>
          <a href={view.to.href} rel="noopener noreferrer">
            {versionLabel(view.to)}
          </a>
        </dd>
      </dl>
      <nav aria-label={c.title} className="mb-3 law-no-print">
        <ul className="nav nav-pills">
          <li className="nav-item">
            <a
              className={`nav-link${side ? "" : " active"}`}
              href={params({})}
              aria-current={side ? undefined : "page"}
            >
              {c.inline}
            </a>
          </li>
          <li className="nav-item">
            <a
              className={`nav-link${side ? " active" : ""}`}
              href={params({ view: "side" })}
              aria-current={side ? "page" : undefined}
            >
              {c.side}
            </a>
          </li>
        </ul>
      </nav>
      <p role="status" className="fw-semibold">
        {view.diff.identical
          ? c.identical
          : fill(c.summary, {
              inserted: plural(locale, c.insertedWords, view.diff.insertedWords),
              deleted: plural(locale, c.deletedWords, view.diff.deletedWords),
              paragraphs: plural(locale, c.paragraphs, view.diff.changedParagraphs),
            })}
      </p>
      <DiffLegend t={c} />
      {side ? <SideBySideDiff rows={view.diff.rows} t={c} /> : <InlineDiff rows={view.diff.rows} t={c} />}
      <p className="small text-body-secondary law-no-print">{c.print}</p>
    </>
  );
}

/** A version in a list: the day it applies, short, then the amending norm ("6 nov 2019 · BOE-A-2019-15790"). */
function versionOption(v: { normId: string; inForceOn?: string | null; publishedOn: string }, locale: Locale): string {
  return `${formatDay(v.inForceOn ?? v.publishedOn, locale)} · ${v.normId}`;
}
