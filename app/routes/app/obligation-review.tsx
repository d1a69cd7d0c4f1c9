import { data, Form, Link } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { reviewFormAction } from "../../.server/triage/law-obligation-page";
import { reviewView } from "../../.server/triage/reviews";
import { FormAlert } from "../../components/app/form-field";
import { blockTitle, formatLawDate, lawsMessages } from "../../components/app/laws/messages";
import { DiffLegend, InlineDiff } from "../../components/app/laws/word-diff";
import { fill } from "../../components/app/messages";
import { errorIdOf, FieldError, triageMessages } from "../../components/app/triage/fields";
import type { Locale } from "../../i18n/locales";
import type { Route } from "./+types/obligation-review";

export const handle = { layout: "bare" };

const decisions = ["still_applies", "changed", "no_longer_applies"] as const;

/** /app/obligations/:id/review: the anchored wording against the new one, and the reviewer's decision. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const view = await reviewView(context.get(servicesContext).api.database.db, member.organizationId, params.id);
  if (view?.obligation.anchorKind !== "article") throw data("Not found", { status: 404 });
  return { locale: appLocale(context), view };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const member = requireMember(context, "documents.read");
  const meta = requestMeta(request, context);
  const outcome = await reviewFormAction(
    {
      db: context.get(servicesContext).api.database.db,
      member,
      locale: appLocale(context),
      obligationId: params.id,
      origin: { ip: meta.ip, userAgent: meta.userAgent },
    },
    await request.formData(),
  );
  if (!outcome) throw data("Not found", { status: 404 });
  return data(outcome, { status: outcome.ok ? 200 : 422 });
}

function when(iso: string | null, locale: Locale): string {
  if (!iso) return "—";
  return new Intl.DateTimeFormat(locale === "en" ? "en-GB" : "es-ES", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "Europe/Madrid",
  }).format(new Date(iso));
}

export default function ObligationReview({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, view } = loaderData;
  const t = triageMessages(locale);
  const r = t.review;
  const compare = lawsMessages(locale).compare;
  const { obligation, review, diff, history } = view;
  const law = obligation.law!;
  const article = blockTitle(law.blockTitle, locale);
  const open = review !== null && review.decision === null;
  const errors = actionData && !actionData.ok ? actionData.errors : {};
  const values = actionData && !actionData.ok ? actionData.values : undefined;
  const chosen = values?.decision ?? "";
  const lawHref = law.href;
  const version = (v: { normId: string; publishedOn: string }) => ({
    norm: v.normId,
    published: formatLawDate(v.publishedOn, locale),
  });
  return (
    <section aria-labelledby="review-heading">
      <p className="small mb-1">
        <Link to="/app/obligations">{r.register}</Link>
      </p>
      <h1 id="review-heading" className="h3">
        {r.title}: {obligation.title}
      </h1>
      <p className="mb-1">
        <a href={lawHref}>{fill(t.register.article, { article, law: law.title })}</a>
      </p>
      <p className="small text-body-secondary">
        {t.obligations.owner}: {obligation.owner?.name ?? t.fields.noAssignee} · {t.obligations.status}:{" "}
        {t.obligationStatuses[obligation.status]}
      </p>
      <FormAlert kind="success">{actionData?.ok ? r.saved : undefined}</FormAlert>
      {open ? (
        <div className="alert alert-warning" data-testid="review-needed">
          <h2 className="h6 mb-1">{r.needed}</h2>
          <p className="mb-0 small">{fill(r.neededLead, { article })}</p>
        </div>
      ) : review ? (
        <p className="text-body-secondary">{r.decidedLead}</p>
      ) : (
        <p data-testid="review-none">{r.none}</p>
      )}
      {review && diff ? (
        <section aria-labelledby="review-comparison" className="mb-4">
          <h2 id="review-comparison" className="h5">
            {r.comparison}
          </h2>
          <p className="small mb-1">{fill(r.from, version(review.from))}</p>
          <p className="small">{fill(r.to, version(review.to))}</p>
          <DiffLegend t={compare} />
          <InlineDiff rows={diff.rows} t={compare} />
        </section>
      ) : null}
      {open ? (
        <section aria-labelledby="review-decision" className="mb-4">
          <h2 id="review-decision" className="h5">
            {r.decisionHeading}
          </h2>
          <FormAlert kind="danger">{actionData && !actionData.ok ? t.panel.formError : undefined}</FormAlert>
          <Form method="post" noValidate>
            <fieldset
              className="mb-3"
              aria-invalid={errors.decision ? true : undefined}
              aria-describedby={errors.decision ? errorIdOf("rv-decision") : undefined}
            >
              <legend className="form-label small mb-1">{r.decision}</legend>
              {decisions.map((decision) => (
                <div key={decision} className="form-check">
                  <input
                    className={`form-check-input${errors.decision ? " is-invalid" : ""}`}
                    type="radio"
                    name="decision"
                    id={`rv-${decision}`}
                    value={decision}
                    defaultChecked={chosen === decision}
                    aria-describedby={`rv-${decision}-hint`}
                  />
                  <label className="form-check-label" htmlFor={`rv-${decision}`}>
                    {r.decisions[decision]}
                  </label>
                  <div id={`rv-${decision}-hint`} className="form-text mt-0">
                    {r.decisionHints[decision]}
                  </div>
                </div>
              ))}
              <FieldError id="rv-decision" errors={errors.decision} />
            </fieldset>
            <div className="mb-2">
              <label htmlFor="rv-text" className="form-label small mb-1">
                {r.newText}
              </label>
              <textarea
                id="rv-text"
                name="text"
                rows={3}
                className={`form-control form-control-sm${errors.text ? " is-invalid" : ""}`}
                defaultValue={values?.text ?? obligation.description}
                aria-invalid={errors.text ? true : undefined}
                aria-describedby={errors.text ? errorIdOf("rv-text") : undefined}
              />
              <FieldError id="rv-text" errors={errors.text} />
            </div>
            <div className="mb-3">
              <label htmlFor="rv-note" className="form-label small mb-1">
                {r.note}
              </label>
              <input
                id="rv-note"
                name="note"
                className={`form-control form-control-sm${errors.note ? " is-invalid" : ""}`}
                defaultValue={values?.note ?? ""}
                aria-invalid={errors.note ? true : undefined}
                aria-describedby={errors.note ? errorIdOf("rv-note") : undefined}
              />
              <FieldError id="rv-note" errors={errors.note} />
            </div>
            <button type="submit" className="btn btn-primary">
              {r.submit}
            </button>
          </Form>
        </section>
      ) : null}
      {history.some((entry) => entry.decision !== null) ? (
        <section aria-labelledby="review-history">
          <h2 id="review-history" className="h5">
            {r.history}
          </h2>
          <ol className="small" data-testid="review-history">
            {history.map((entry) => (
              <li key={entry.id}>
                {entry.decision
                  ? fill(r.historyEntry, {
                      decision: r.decisions[entry.decision],
                      who: entry.decidedBy?.name ?? "—",
                      when: when(entry.decidedAt, locale),
                      from: entry.from.normId,
                      to: entry.to.normId,
                    })
                  : fill(r.open, { when: when(entry.openedAt, locale), from: entry.from.normId, to: entry.to.normId })}
                {entry.note ? ` — ${entry.note}` : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </section>
  );
}
