import { useEffect } from "react";
import { data, Form, useRevalidator } from "react-router";
import { recordAudit } from "../../.server/audit/record";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import {
  addFeed,
  backfillProgress,
  feedInputSchema,
  listSources,
  removeFeed,
  requestSourceRun,
} from "../../.server/sources/admin";
import { failureStatus, givenUpDocument } from "../../.server/sources/errors";
import { requestSampleLoad, type SampleProgress, type SampleStatus } from "../../.server/sources/sample";
import { CardTable } from "../../components/app/card-table";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages, fill, formatDateTime } from "../../components/app/messages";
import type { Locale } from "../../i18n/locales";
import { fieldErrorsOf } from "../../lib/field-errors";
import { plural } from "../../lib/plural";
import type { Route } from "./+types/admin-sources";

export const handle = { layout: "bare" };

export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "sources.manage");
  const db = context.get(servicesContext).api.database.db;
  const sources = await listSources(db, member.organizationId);
  const backfill = await backfillProgress(db);
  const sampleLoader = context.get(servicesContext).sample;
  const sample: SampleStatus | null = sampleLoader ? await sampleLoader.status() : null;
  const sampleProgress = sampleLoader ? await sampleLoader.progress(member.organizationId) : null;
  return {
    locale: appLocale(context),
    sample,
    sampleProgress,
    sources: sources.map((source) => ({
      ...source,
      lastSuccessAt: source.lastSuccessAt?.toISOString() ?? null,
      lastErrorAt: source.lastErrorAt?.toISOString() ?? null,
      lastErrorStatus: source.lastError ? (failureStatus(source.lastError) ?? null) : null,
      givenUp: source.lastError ? (givenUpDocument(source.lastError) ?? null) : null,
    })),
    backfill: backfill
      ? {
          daysTotal: backfill.daysTotal,
          daysDone: backfill.daysDone,
          daysFailed: backfill.daysFailed,
          documents: backfill.documents,
          finished: backfill.finishedAt !== null,
        }
      : null,
  };
}

type Notice = {
  notice: "queued" | "alreadyQueued" | "added" | "removed" | "sampleStarted" | "sampleAlready" | "sampleSeeded";
  name: string;
};
type Failure = { failure: "off" | "duplicate" | "not_found" | "sampleOff"; errors?: undefined; values?: undefined };
type Invalid = { failure?: undefined; errors: Record<string, string[]>; values: { name: string; url: string } };

/** Run now, add a feed, remove a feed: each audited in the transaction of its change. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "sources.manage");
  const locale = appLocale(context);
  const services = context.get(servicesContext);
  const db = services.api.database.db;
  const meta = requestMeta(request, context);
  const audit = { actor: { id: member.userId, email: member.email }, ip: meta.ip, userAgent: meta.userAgent };
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");

  if (intent === "run") {
    const id = String(form.get("id") ?? "");
    const outcome = await requestSourceRun(
      db,
      services.ingestJobs,
      (services.config?.sources.ingest.length ?? 0) > 0,
      member.organizationId,
      id,
      audit,
    );
    if (outcome.status === "not_found") return data<Failure>({ failure: "not_found" }, { status: 404 });
    if (outcome.status === "off") return data<Failure>({ failure: "off" }, { status: 503 });
    const sources = await listSources(db, member.organizationId);
    const source = sources.find((s) => s.id === id);
    const name = source?.name ?? source?.labels[locale] ?? id;
    return data<Notice>({ notice: outcome.jobId ? "queued" : "alreadyQueued", name }, { status: 202 });
  }

  if (intent === "sample") {
    if (!services.sample) return data<Failure>({ failure: "sampleOff" }, { status: 503 });
    const outcome = await requestSampleLoad(
      services.api.database,
      services.sample,
      { ...audit, organizationId: member.organizationId },
      "sources_page",
      locale,
    );
    const notice = outcome === "started" ? "sampleStarted" : outcome === "seeded" ? "sampleSeeded" : "sampleAlready";
    return data<Notice>({ notice, name: "" }, { status: 202 });
  }

  if (intent === "add") {
    const values = { name: String(form.get("name") ?? ""), url: String(form.get("url") ?? "") };
    const parsed = await feedInputSchema(locale, {
      allowPrivate: services.config?.alerts.allowPrivateWebhookUrls ?? false,
    }).safeParseAsync(values);
    if (!parsed.success) {
      const errors = fieldErrorsOf(parsed.error.issues, { fallback: "url" });
      return data<Invalid>({ errors, values }, { status: 422 });
    }
    const added = await db.transaction(async (tx) => {
      const feed = await addFeed(tx, member.organizationId, parsed.data);
      if (feed) {
        await recordAudit(tx, {
          ...audit,
          organizationId: member.organizationId,
          action: "source_feed.added",
          object: { type: "source_feed", id: feed.id },
          detail: { name: feed.name, url: feed.url },
        });
      }
      return feed;
    });
    if (!added) return data<Failure>({ failure: "duplicate" }, { status: 409 });
    // Its first fetch now rather than at the next scheduled round (nothing when ingestion is off).
    if ((services.config?.sources.ingest.length ?? 0) > 0) {
      await services.ingestJobs
        ?.runSourceNow(added.id)
        .catch((error: unknown) => services.log.error({ err: error, feedId: added.id }, "feed's first run not queued"));
    }
    return { notice: "added", name: added.name } satisfies Notice;
  }

  if (intent === "remove") {
    const removed = await db.transaction(async (tx) => {
      const feed = await removeFeed(tx, member.organizationId, String(form.get("id") ?? ""));
      if (feed) {
        await recordAudit(tx, {
          ...audit,
          organizationId: member.organizationId,
          action: "source_feed.removed",
          object: { type: "source_feed", id: feed.id },
          detail: { url: feed.url },
        });
      }
      return feed;
    });
    if (!removed) return data<Failure>({ failure: "not_found" }, { status: 404 });
    return { notice: "removed", name: removed.url } satisfies Notice;
  }
  return data<Failure>({ failure: "not_found" }, { status: 400 });
}

export default function AdminSources({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, sources, backfill, sample, sampleProgress } = loaderData;
  const app = appMessages(locale);
  const t = app.docs.admin;
  const result = actionData as Notice | Failure | Invalid | undefined;
  const notice = result && "notice" in result ? result : undefined;
  const failure = result && "failure" in result && result.failure ? result.failure : undefined;
  const invalid = result && "errors" in result && result.errors ? (result as Invalid) : undefined;
  const noticeText = notice
    ? notice.notice === "queued"
      ? fill(t.queued, { source: notice.name })
      : notice.notice === "alreadyQueued"
        ? fill(t.alreadyQueued, { source: notice.name })
        : notice.notice === "added"
          ? fill(t.added, { name: notice.name })
          : notice.notice === "sampleStarted"
            ? t.sampleStarted
            : notice.notice === "sampleAlready"
              ? t.sampleAlready
              : notice.notice === "sampleSeeded"
                ? t.sampleSeeded
                : t.removed
    : undefined;
  const failureText =
    failure === "off"
      ? t.off
      : failure === "duplicate"
        ? t.duplicate
        : failure === "sampleOff"
          ? t.sampleOff
          : failure
            ? app.errors.not_found
            : undefined;
  const label = (source: (typeof sources)[number]) => source.name ?? source.labels[locale];
  const feeds = sources.filter((source) => source.type === "feed");
  return (
    <>
      <h1 className="h3">{t.title}</h1>
      <p className="text-body-secondary">{t.lead}</p>
      <FormAlert kind="success">{noticeText}</FormAlert>
      <FormAlert kind="danger">{failureText}</FormAlert>
      {backfill ? <BackfillProgress backfill={backfill} t={t} locale={locale} /> : null}
      {sample ? <SampleData status={sample} progress={sampleProgress} t={t} locale={locale} /> : null}
      <div className="table-responsive position-relative mb-4">
        {/* One card per source on a phone: the last column (the run button) was off screen at 390 px. */}
        <CardTable
          labels={["", t.lastSuccess, t.lastError, t.documentsToday, ""]}
          className="table align-middle"
          data-testid="sources"
        >
          <thead>
            <tr>
              <th scope="col">{t.source}</th>
              <th scope="col">{t.lastSuccess}</th>
              <th scope="col">{t.lastError}</th>
              <th scope="col" className="text-end">
                {t.documentsToday}
              </th>
              <th scope="col">
                <span className="visually-hidden">{app.members.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sources.map((source) => (
              <tr key={source.id} data-testid="source-row">
                <th scope="row">
                  {label(source)}
                  {source.url ? <span className="d-block small fw-normal text-break">{source.url}</span> : null}
                </th>
                <td className="small">
                  {source.lastSuccessAt ? formatDateTime(source.lastSuccessAt, locale) : t.never}
                </td>
                <td className="small">
                  {source.lastError ? (
                    <div data-testid="source-error" data-kind={source.lastErrorKind} data-past={source.lastErrorPast}>
                      <span
                        className={`badge text-wrap me-1 ${source.lastErrorPast ? "text-bg-secondary" : "text-bg-danger"}`}
                        data-testid="source-error-state"
                      >
                        {source.lastErrorPast ? t.errorPast : t.errorCurrent}
                      </span>
                      <span className={source.lastErrorPast ? "text-body-secondary" : "text-danger-emphasis"}>
                        {fill(t.failure[source.lastErrorKind ?? "other"], {
                          status: String(source.lastErrorStatus ?? ""),
                        })}
                      </span>
                      {source.givenUp ? (
                        <span className="d-block" data-testid="source-given-up">
                          {fill(t.givenUp, {
                            document: source.givenUp.document,
                            retries: String(source.givenUp.retries),
                          })}
                        </span>
                      ) : null}
                      <span className="d-block text-body-secondary">
                        {formatDateTime(source.lastErrorAt, locale)}
                        {source.lastErrorPast ? ` · ${t.errorPastHint}` : ""}
                      </span>
                      <details className="text-body-secondary">
                        <summary>{t.technicalDetail}</summary>
                        <code className="d-block text-break" lang="en">
                          {source.lastError}
                        </code>
                        {source.lastErrorUrl ? <span className="d-block text-break">{source.lastErrorUrl}</span> : null}
                      </details>
                    </div>
                  ) : (
                    t.none
                  )}
                </td>
                <td className="text-end">{source.documentsToday}</td>
                <td className="text-end">
                  <Form method="post">
                    <input type="hidden" name="intent" value="run" />
                    <input type="hidden" name="id" value={source.id} />
                    <button
                      type="submit"
                      className="btn btn-sm btn-outline-primary"
                      aria-label={fill(t.runLabel, { source: label(source) })}
                    >
                      {t.run}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </CardTable>
      </div>
      <section aria-labelledby="feeds-heading">
        <h2 id="feeds-heading" className="h5">
          {t.feeds}
        </h2>
        <p className="text-body-secondary">{t.feedsLead}</p>
        {feeds.length === 0 ? <p>{t.noFeeds}</p> : null}
        <ul className="list-group mb-3" data-testid="feeds">
          {feeds.map((feed) => (
            <li key={feed.id} className="list-group-item d-flex flex-wrap gap-2 align-items-center">
              <span className="me-auto">
                <span className="fw-semibold">{feed.name}</span>
                <span className="d-block small text-break">{feed.url}</span>
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="id" value={feed.id} />
                <button
                  type="submit"
                  className="btn btn-sm btn-outline-danger"
                  aria-label={fill(t.removeLabel, { name: feed.name ?? "" })}
                >
                  {t.remove}
                </button>
              </Form>
            </li>
          ))}
        </ul>
        <Form method="post" noValidate className="row g-2 align-items-end">
          <input type="hidden" name="intent" value="add" />
          <div className="col-md-4">
            <FormField
              name="name"
              id="feed-name"
              required
              maxLength={120}
              label={t.feedName}
              defaultValue={invalid?.values.name ?? ""}
              errors={invalid?.errors.name}
            />
          </div>
          <div className="col-md-6">
            <FormField
              name="url"
              id="feed-url"
              type="url"
              required
              maxLength={2000}
              label={t.feedUrl}
              defaultValue={invalid?.values.url ?? ""}
              errors={invalid?.errors.url}
            />
          </div>
          <div className="col-md-2 mb-3">
            <button type="submit" className="btn btn-primary w-100">
              {t.add}
            </button>
          </div>
        </Form>
      </section>
    </>
  );
}

function BackfillProgress({
  backfill,
  t,
  locale,
}: {
  backfill: { daysTotal: number; daysDone: number; daysFailed: number; documents: number; finished: boolean };
  t: ReturnType<typeof appMessages>["docs"]["admin"];
  locale: Locale;
}) {
  const handled = backfill.daysDone + backfill.daysFailed;
  const percent = backfill.daysTotal > 0 ? Math.round((handled * 100) / backfill.daysTotal) : 100;
  const values = {
    days: plural(locale, t.backfillDays, backfill.daysTotal, { done: String(backfill.daysDone) }),
    documents: plural(locale, t.backfillDocuments, backfill.documents),
  };
  return (
    <section className="card mb-4" aria-labelledby="backfill-heading" data-testid="backfill">
      <div className="card-body">
        <h2 id="backfill-heading" className="h6">
          {t.backfillTitle}
        </h2>
        <div
          className="progress mb-2"
          role="progressbar"
          aria-labelledby="backfill-heading"
          aria-valuenow={handled}
          aria-valuemin={0}
          aria-valuemax={backfill.daysTotal}
        >
          <div
            className={`progress-bar${backfill.finished ? "" : " progress-bar-striped progress-bar-animated"}`}
            style={{ width: `${percent}%` }}
          />
        </div>
        <p className="small mb-0" data-testid="backfill-text">
          {fill(backfill.finished ? t.backfillDone : t.backfillRunning, values)}
          {backfill.daysFailed > 0 ? ` ${plural(locale, t.backfillFailed, backfill.daysFailed)}` : ""}
        </p>
      </div>
    </section>
  );
}

/**
 * The bundled recorded sample: a button to load it (or, loaded, to add it to this organisation),
 * and what it holds so far (documents, laws, this organisation's alerts), refreshed while it loads.
 */
function SampleData({
  status,
  progress,
  t,
  locale,
}: {
  status: SampleStatus;
  progress: SampleProgress | null;
  t: ReturnType<typeof appMessages>["docs"]["admin"];
  locale: Locale;
}) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (status !== "loading") return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [status, revalidator]);
  const offer = status === "none" || (status === "loaded" && progress !== null && !progress.seeded);
  return (
    <section className="mb-4" aria-labelledby="sample-heading" data-testid="sample" data-status={status}>
      <h2 id="sample-heading" className="h6">
        {t.sampleTitle}
      </h2>
      {status !== "none" ? (
        <p className="small mb-1" role="status">
          {status === "loading" ? t.sampleLoading : t.sampleLoaded}
        </p>
      ) : null}
      {progress && (status !== "none" || progress.documents > 0) ? (
        <p className="small mb-1" data-testid="sample-counts">
          {fill(t.sampleCounts, {
            documents: plural(locale, t.sampleDocuments, progress.documents),
            laws: plural(locale, t.sampleLaws, progress.laws),
            alerts: plural(locale, t.sampleAlerts, progress.alerts),
          })}
        </p>
      ) : null}
      {offer ? (
        <Form method="post" className="d-flex flex-wrap gap-2 align-items-center">
          <input type="hidden" name="intent" value="sample" />
          <p className="small mb-0 me-auto">{status === "none" ? `${t.sampleNone} ${t.sampleWhat}` : t.sampleWhat}</p>
          <button type="submit" className="btn btn-sm btn-outline-primary">
            {status === "none" ? t.sampleLoad : t.sampleForYou}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
