import { data, Form, Link } from "react-router";
import { organisationGroups } from "../../.server/alerts/profile-admin";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { can } from "../../.server/auth/permissions";
import { servicesContext } from "../../.server/context";
import { loadLawText } from "../../.server/law-texts/store";
import { followFromForm, followsOf, unfollowFromForm } from "../../.server/laws/follow-page";
import { lawPageView } from "../../.server/laws/page";
import { organisationFollowsLaw, pendingLawView } from "../../.server/laws/reach";
import { localTitle } from "../../.server/laws/titles";
import { startEuSync } from "../../.server/sources/eu-consolidated/run";
import { FormAlert } from "../../components/app/form-field";
import { type FollowItem, FollowList, FollowMessage, LawFollowForm } from "../../components/app/laws/follow-form";
import { LawChangeNotice, LawParts, lawPartHref } from "../../components/app/laws/law-parts";
import { LawText } from "../../components/app/laws/law-text";
import { formatLawDate, type LawsMessages, lawsMessages } from "../../components/app/laws/messages";
import { fill } from "../../components/app/messages";
import type { Locale } from "../../i18n/locales";
import { isCalendarDate } from "../../lib/calendar-date";
import { madridDate } from "../../lib/madrid-date";
import { plural } from "../../lib/plural";
import type { Route } from "./+types/law";

export const handle = { layout: "bare" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const locale = appLocale(context);
  const { api } = context.get(servicesContext);
  const database = api.database;
  // The organisation's followed laws only, as the laws API (reach.ts): another's follow shows nothing.
  if (!(await organisationFollowsLaw(database, member.organizationId, params.id))) {
    throw data("Not found", { status: 404 });
  }
  const loaded = await loadLawText(database, params.id);
  if (!loaded) throw data("Not found", { status: 404 });
  // The title in the reader's language where Cellar gave one (the catalogue keeps both).
  const text = {
    ...loaded,
    law: { ...loaded.law, title: await localTitle(database, params.id, loaded.law.title, locale) },
  };
  const follows = await followsOf(database, member, params.id, locale);
  if (text.blocks.length === 0) {
    // Followed, not fetched yet (or unknown to the source): a page that says so, not a failure.
    return {
      locale,
      pending: await pendingLawView(database, text.law, api.ingesting),
      view: null,
      badDate: false,
      askedDate: null,
      follows,
      groups: [],
    };
  }
  const url = new URL(request.url);
  const asked = url.searchParams.get("date");
  const today = madridDate();
  const badDate = asked !== null && asked !== "" && !isCalendarDate(asked);
  const date = asked && isCalendarDate(asked) ? asked : today;
  const view = await lawPageView(
    database,
    member.organizationId,
    params.id,
    date,
    today,
    {
      part: url.searchParams.get("part"),
      block: url.searchParams.get("block"),
      change: url.searchParams.get("change"),
    },
    text,
  );
  if (!view) throw data("Not found", { status: 404 });
  const groups = can(member, "profiles.manage_group") ? await organisationGroups(database, member.organizationId) : [];
  return data(
    { locale, pending: null, view, badDate, askedDate: badDate ? asked : null, follows, groups },
    { status: badDate ? 400 : 200 },
  );
}

/** intent=follow (scope, block…, audience, mail) or intent=unfollow (id): plain POST forms, audited. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const member = requireMember(context, "alerts.use");
  const services = context.get(servicesContext);
  const database = services.api.database;
  const meta = requestMeta(request, context);
  const form = await request.formData();
  if (form.get("intent") === "unfollow") {
    const result = await unfollowFromForm(database, member, meta, String(form.get("id") ?? ""));
    return data(result, { status: result.ok ? 200 : 404 });
  }
  const result = {
    ...(await followFromForm(database, member, meta, form, params.id, services.api.maxFollowsPerOrganization)),
    limit: services.api.maxFollowsPerOrganization,
  };
  if (result.ok && result.lawId && !/^BOE-/.test(result.lawId) && services.config) {
    startEuSync(services.config, database, services.log, result.lawId);
  }
  return data(result, { status: result.ok ? 200 : 422 });
}

/** When a pending law is checked, in the member's language and Madrid's clock. */
function formatWhen(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "Europe/Madrid",
  }).format(new Date(iso));
}

type PendingLaw = NonNullable<Route.ComponentProps["loaderData"]["pending"]>;

/** A law followed whose text has not arrived (or that the source does not know): what and when. */
function PendingLawPage({
  t,
  locale,
  law,
  follows,
  actionData,
}: {
  t: LawsMessages;
  locale: Locale;
  law: PendingLaw;
  follows: FollowItem[];
  actionData: Route.ComponentProps["actionData"];
}) {
  const p = t.page;
  const unknown = law.state === "unknown";
  return (
    <>
      <p className="small text-body-secondary mb-1">
        {p.source[law.source]} · {law.id}
      </p>
      <h1 className="h3">{law.title}</h1>
      <p className="small">
        <a href={law.officialUrl} rel="noopener noreferrer">
          {p.official}
        </a>
      </p>
      <FollowMessage t={t} result={actionData} />
      <section
        className={`alert ${unknown ? "alert-warning" : "alert-info"}`}
        aria-labelledby="law-pending-heading"
        data-testid="law-pending"
      >
        <h2 id="law-pending-heading" className="h5">
          {unknown ? p.pending.unknownHeading : p.pending.heading}
        </h2>
        {unknown ? (
          <p className="mb-0">{fill(p.pending.unknownLead, { when: formatWhen(law.checkedAt ?? "", locale) })}</p>
        ) : (
          <>
            <p>{p.pending.lead}</p>
            <p className="mb-0">
              {law.nextCheckAt
                ? fill(p.pending.nextCheck, { when: formatWhen(law.nextCheckAt, locale) })
                : p.pending.notIngesting}
              {law.checkedAt ? ` ${fill(p.pending.lastCheck, { when: formatWhen(law.checkedAt, locale) })}` : null}
            </p>
          </>
        )}
      </section>
      <FollowList t={t} follows={follows} />
    </>
  );
}

export default function LawPage({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, pending, view, badDate, askedDate, follows, groups } = loaderData;
  const t = lawsMessages(locale);
  const p = t.page;
  if (pending || !view) {
    return pending ? (
      <PendingLawPage t={t} locale={locale} law={pending} follows={follows} actionData={actionData} />
    ) : null;
  }
  return (
    <>
      <p className="small text-body-secondary mb-1">
        {p.source[view.law.source]} · {view.law.id}
      </p>
      <h1 className="h3">{view.law.title}</h1>
      <p className="small">
        <a href={view.law.officialUrl} rel="noopener noreferrer">
          {p.official}
        </a>
        {view.law.updatedAt ? ` · ${fill(p.updated, { date: formatLawDate(view.law.updatedAt, locale) })}` : null}
        {" · "}
        {view.law.source === "eu" ? p.attributionEu : p.attribution}
      </p>
      {view.announcements.length > 0 ? (
        <section className="alert alert-warning" aria-labelledby="law-pending">
          <h2 id="law-pending" className="h6 mb-1">
            {p.pendingBanner}
          </h2>
          <p className="mb-1 small">{p.pendingLead}</p>
          <ul className="mb-0 small">
            {view.announcements.map((a) => (
              <li key={a.actId}>
                <a href={a.href}>{a.actId}</a> ({formatLawDate(a.publishedOn, locale)}): {a.relation} {a.relationText}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {view.amendedBy.length > 0 ? (
        <details className="mb-3" data-testid="law-amended-by">
          <summary>{fill(p.amendedBy, { count: view.amendedBy.length })}</summary>
          <ul className="small mt-2 mb-0">
            {view.amendedBy.map((a) => (
              <li key={a.actId}>
                <a href={a.href}>{a.actId}</a> ({formatLawDate(a.publishedOn, locale)}):{" "}
                {plural(locale, p.amendedBlocks, a.blocks)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <FollowMessage t={t} result={actionData} />
      <FormAlert kind="danger">{badDate ? `${p.badDate} (${askedDate ?? ""})` : undefined}</FormAlert>
      <div className="row g-4">
        <div className="col-lg-4 law-no-print law-side">
          <LawFollowForm
            t={t}
            lawId={view.law.id}
            blocks={view.toc}
            hrefOf={(block) =>
              view.part === null || block.part === undefined || block.part === view.part
                ? `#${block.anchor}`
                : lawPartHref(view, block.part, block.anchor)
            }
            follows={follows}
            groups={groups}
            locale={locale}
          />
        </div>
        <div className="col-lg-8">
          <section aria-labelledby="law-date-heading" className="mb-4 law-no-print">
            <h2 id="law-date-heading" className="h5">
              {p.dateHeading}
            </h2>
            <Form method="get" className="d-flex flex-wrap gap-2 align-items-end">
              {view.parts.length > 1 ? <input type="hidden" name="part" value={view.part ?? "all"} /> : null}
              <div>
                <label htmlFor="law-date" className="form-label mb-1">
                  {p.dateLabel}
                </label>
                <input
                  id="law-date"
                  type="date"
                  name="date"
                  className="form-control"
                  defaultValue={view.date}
                  aria-describedby="law-date-hint"
                />
              </div>
              <button type="submit" className="btn btn-primary">
                {p.showDate}
              </button>
              {view.isToday ? null : (
                <Link
                  to={`/app/laws/${encodeURIComponent(view.law.id)}${view.parts.length > 1 ? `?part=${view.part ?? "all"}` : ""}`}
                  className="btn btn-link"
                >
                  {p.today}
                </Link>
              )}
            </Form>
            <p id="law-date-hint" className="form-text">
              {p.dateHint}
            </p>
          </section>
          <p className="fw-semibold" data-testid="law-date">
            {fill(view.isToday ? p.inForceToday : p.inForceOn, { date: formatLawDate(view.date, locale) })}
          </p>
          <LawChangeNotice t={t} view={view} />
          <LawParts t={t} locale={locale} view={view} />
          <LawText t={t} view={view} locale={locale} />
          <LawParts t={t} locale={locale} view={view} end />
        </div>
      </div>
    </>
  );
}
