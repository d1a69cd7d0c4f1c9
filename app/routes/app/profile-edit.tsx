import { data, Form, Link, redirect } from "react-router";
import { profileFromSearch } from "../../.server/alerts/from-search";
import {
  createAuditedProfile,
  organisationGroups,
  previewProfile,
  profileFor,
  updateAuditedProfile,
} from "../../.server/alerts/profile-admin";
import { type Profile, profileInputSchema } from "../../.server/alerts/profiles";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { can } from "../../.server/auth/permissions";
import { servicesContext } from "../../.server/context";
import { reasonText } from "../../.server/feeds/atom";
import { sourceChoices } from "../../.server/sources/registry";
import { FormAlert, FormField } from "../../components/app/form-field";
import { alertMessages, fill } from "../../components/app/messages";
import { savedMessages } from "../../components/app/saved/messages";
import { fieldErrorsOf } from "../../lib/field-errors";
import { madridDateDaysAgo } from "../../lib/madrid-date";
import {
  emptyProfileValues,
  type ProfileFormValues,
  profileInput,
  valuesFromForm,
  valuesFromProfile,
} from "../../lib/profile-form";
import { areas, jurisdictions, kinds } from "../../lib/taxonomy";
import type { Route } from "./+types/profile-edit";
import { filtersQuery, parseSearchParams, runSearch } from "./search.server";

export const handle = { layout: "bare" };

type Preview = { total: number; items: { id: string; title: string; publishedOn: string; reasons: string[] }[] };

/** The preview as the page shows it, each reason in words ("área Ayudas y subvenciones"). */
function previewView(preview: Awaited<ReturnType<typeof previewProfile>>, locale: "es" | "en"): Preview {
  return {
    total: preview.total,
    items: preview.items.map((item) => ({
      id: item.document.id,
      title: item.document.title,
      publishedOn: item.document.publishedOn ?? "",
      reasons: item.reasons.map((reason) => reasonText(reason, locale)),
    })),
  };
}

/**
 * A new profile from a search (`/app/profiles/new?fromSearch=1&q=…&area=…`): the search's filters
 * mapped to the profile's (alerts/from-search.ts, with what an alert cannot keep), and the preview
 * of the last 30 days computed at once, beside what the search itself finds in those days.
 */
async function fromSearch(request: Request, context: Route.LoaderArgs["context"], locale: "es" | "en") {
  const member = requireMember(context, "alerts.use");
  const url = new URL(request.url);
  if (url.searchParams.get("fromSearch") !== "1") return null;
  const parsed = parseSearchParams(url.searchParams, locale, 1);
  if (!parsed.query) return null;
  const services = context.get(servicesContext);
  const mapped = profileFromSearch(parsed.query, locale, savedMessages(locale).fromSearch.defaultName);
  const input = profileInputSchema(locale).safeParse(profileInput(mapped.values, member.userId));
  const preview = input.success
    ? previewView(await previewProfile(services.alerts.database, member.organizationId, input.data), locale)
    : null;
  const since = madridDateDaysAgo(30);
  const searched = await runSearch(services.api.database, member.organizationId, {
    ...parsed.query,
    from: parsed.query.from && parsed.query.from > since ? parsed.query.from : since,
    cursor: undefined,
  });
  return {
    values: mapped.values,
    notes: mapped.notes,
    preview,
    searchHref: `/app/search${filtersQuery(parsed.values)}`,
    searchTotal: searched === "bad-cursor" ? null : searched.total,
  };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const member = requireMember(context, "alerts.use");
  const locale = appLocale(context);
  const { database } = context.get(servicesContext).alerts;
  const admin = can(member, "profiles.manage_group");
  let values = emptyProfileValues(locale);
  let id: string | null = null;
  let lawId: string | null = null;
  const search = params.id ? null : await fromSearch(request, context, locale);
  if (params.id) {
    const profile = await profileFor(database, member, params.id);
    if (!profile) throw data("Not found", { status: 404 });
    values = valuesFromProfile(profile);
    id = profile.id;
    lawId = (profile as Profile & { lawId?: string | null }).lawId ?? null;
  } else if (search) values = search.values;
  return {
    locale,
    id,
    lawId,
    values,
    search,
    sources: sourceChoices(locale),
    groups: admin ? await organisationGroups(database, member.organizationId) : [],
  };
}

const hours = Array.from({ length: 24 }, (_, hour) => hour);

/** intent=preview: the last 30 days' matches of what is typed (nothing saved); intent=save: create or update, audited. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const member = requireMember(context, "alerts.use");
  const locale = appLocale(context);
  const t = alertMessages(locale);
  const { database } = context.get(servicesContext).alerts;
  const form = await request.formData();
  const values = valuesFromForm(form);
  const admin = can(member, "profiles.manage_group");
  const errors: Record<string, string[]> = {};
  if (values.owner === "group") {
    const groups = admin ? await organisationGroups(database, member.organizationId) : [];
    if (!admin) values.owner = "me";
    else if (!groups.some((group) => group.id === values.groupId)) errors.groupId = [t.edit.invalid];
  }
  const existing = params.id ? await profileFor(database, member, params.id) : undefined;
  if (params.id && !existing) throw data("Not found", { status: 404 });
  const parsed = profileInputSchema(locale).safeParse(profileInput(values, member.userId));
  if (!parsed.success) fieldErrorsOf(parsed.error.issues, { fallback: "form", into: errors });
  if (!parsed.success || Object.keys(errors).length) {
    return { values, errors, preview: null as Preview | null };
  }
  if (form.get("intent") === "preview") {
    const preview = await previewProfile(database, member.organizationId, parsed.data);
    return { values, errors, preview: previewView(preview, locale) as Preview | null };
  }
  const meta = requestMeta(request, context);
  if (existing) await updateAuditedProfile(database, member, existing.id, parsed.data, meta);
  else await createAuditedProfile(database, member, parsed.data, meta);
  throw redirect("/app/profiles?done=saved");
}

function Checkboxes({
  legend,
  name,
  options,
  selected,
}: {
  legend: string;
  name: string;
  options: { id: string; label: string }[];
  selected: string[];
}) {
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6 fw-semibold">{legend}</legend>
      <div className="app-choice-grid">
        {options.map((option) => (
          <div className="form-check" key={option.id}>
            <input
              className="form-check-input"
              type="checkbox"
              name={name}
              value={option.id}
              id={`${name}-${option.id}`}
              defaultChecked={selected.includes(option.id)}
            />
            <label className="form-check-label" htmlFor={`${name}-${option.id}`}>
              {option.label}
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <div id={id} className="invalid-feedback d-block">
      {errors.join(" ")}
    </div>
  );
}

export default function ProfileEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, id, groups, search, lawId } = loaderData;
  const t = alertMessages(locale);
  const ts = savedMessages(locale);
  const values: ProfileFormValues = actionData?.values ?? loaderData.values;
  const errors: Record<string, string[]> = actionData?.errors ?? {};
  const preview = actionData ? actionData.preview : search?.preview;
  const invalid = Object.keys(errors).length > 0;
  const describedBy = (name: string) => (errors[name]?.length ? `${name}-error` : undefined);
  return (
    <>
      <p className="mb-2">
        <Link to="/app/profiles">← {t.edit.back}</Link>
      </p>
      <h1 className="h3">{id ? fill(t.edit.titleEdit, { name: loaderData.values.name }) : t.edit.titleNew}</h1>
      {id && !lawId ? (
        <p>
          <Link to={`/app/profiles/${id}/feed`}>{ts.feed.link}</Link>
        </p>
      ) : null}
      {search ? (
        <section aria-labelledby="from-search-title" className="alert alert-info" data-testid="from-search">
          <h2 id="from-search-title" className="h5">
            {ts.fromSearch.title}
          </h2>
          <p>{ts.fromSearch.lead}</p>
          {search.searchTotal !== null && search.preview ? (
            <p data-testid="from-search-counts">
              {fill(ts.fromSearch.counts, { search: search.searchTotal, alert: search.preview.total })}
            </p>
          ) : null}
          <h3 className="h6">{ts.fromSearch.notesTitle}</h3>
          {search.notes.length ? (
            <ul data-testid="from-search-notes">
              {search.notes.map((note) => (
                <li key={note}>{ts.fromSearch.notes[note]}</li>
              ))}
            </ul>
          ) : (
            <p>{ts.fromSearch.allKept}</p>
          )}
          <p className="mb-0">
            <a href={search.searchHref}>{ts.fromSearch.back}</a>
          </p>
        </section>
      ) : null}
      <FormAlert kind="danger">{invalid ? t.edit.invalid : undefined}</FormAlert>
      <Form method="post" noValidate className="app-profile-form" aria-label={id ? t.edit.titleEdit : t.edit.titleNew}>
        <FormField
          name="name"
          label={t.edit.name}
          required
          maxLength={120}
          defaultValue={values.name}
          errors={errors.name}
        />
        {groups.length > 0 ? (
          <fieldset className="mb-3">
            <legend className="form-label fs-6 fw-semibold">{t.edit.ownerLegend}</legend>
            <div className="form-check">
              <input
                className="form-check-input"
                type="radio"
                name="owner"
                id="owner-me"
                value="me"
                defaultChecked={values.owner === "me"}
              />
              <label className="form-check-label" htmlFor="owner-me">
                {t.edit.ownerMe}
              </label>
            </div>
            <div className="form-check">
              <input
                className="form-check-input"
                type="radio"
                name="owner"
                id="owner-group"
                value="group"
                defaultChecked={values.owner === "group"}
              />
              <label className="form-check-label" htmlFor="owner-group">
                {t.edit.ownerGroup}
              </label>
            </div>
            <div className="mt-2 ms-4">
              <label className="form-label" htmlFor="groupId">
                {t.edit.groupLabel}
              </label>
              <select
                id="groupId"
                name="groupId"
                className={`form-select${errors.groupId ? " is-invalid" : ""}`}
                defaultValue={values.groupId}
                aria-describedby={describedBy("groupId")}
              >
                <option value="">—</option>
                {groups.map((group) => (
                  <option key={group.id} value={group.id}>
                    {group.name}
                  </option>
                ))}
              </select>
              <FieldErrors id="groupId-error" errors={errors.groupId} />
            </div>
          </fieldset>
        ) : (
          <input type="hidden" name="owner" value="me" />
        )}
        <fieldset className="mb-3">
          <legend className="h5">{t.edit.filtersLegend}</legend>
          <p className="small text-body-secondary">{t.edit.filtersHelp}</p>
          <Checkboxes
            legend={t.edit.areas}
            name="areas"
            options={areas.map((area) => ({ id: area.id, label: area.name[locale] }))}
            selected={values.areas}
          />
          <Checkboxes
            legend={t.edit.jurisdictions}
            name="jurisdictions"
            options={jurisdictions.map((j) => ({ id: j.id, label: j.name[locale] }))}
            selected={values.jurisdictions}
          />
          <Checkboxes
            legend={t.edit.kinds}
            name="kinds"
            options={kinds.map((kind) => ({ id: kind.id, label: kind.name[locale] }))}
            selected={values.kinds}
          />
          <Checkboxes legend={t.edit.sources} name="sources" options={loaderData.sources} selected={values.sources} />
          <div className="mb-3">
            <label className="form-label" htmlFor="minRelevance">
              {t.edit.minRelevance}
            </label>
            <select id="minRelevance" name="minRelevance" className="form-select" defaultValue={values.minRelevance}>
              <option value="">{t.edit.relevanceAny}</option>
              <option value="high">{t.edit.relevance.high}</option>
              <option value="medium">{t.edit.relevance.medium}</option>
              <option value="low">{t.edit.relevance.low}</option>
            </select>
          </div>
          <div className="mb-3">
            <label className="form-label" htmlFor="keywords">
              {t.edit.keywords}
            </label>
            <textarea
              id="keywords"
              name="keywords"
              rows={3}
              className={`form-control${errors.keywords ? " is-invalid" : ""}`}
              defaultValue={values.keywords}
              aria-describedby={describedBy("keywords") ?? "keywords-help"}
            />
            <div id="keywords-help" className="form-text">
              {t.edit.keywordsHelp}
            </div>
            <FieldErrors id="keywords-error" errors={errors.keywords} />
          </div>
          <div className="mb-3">
            <label className="form-label" htmlFor="query">
              {t.edit.query}
            </label>
            <input
              id="query"
              name="query"
              className={`form-control${errors.query ? " is-invalid" : ""}`}
              defaultValue={values.query}
              maxLength={500}
              aria-describedby={describedBy("query") ?? "query-help"}
            />
            <div id="query-help" className="form-text">
              {t.edit.queryHelp}
            </div>
            <FieldErrors id="query-error" errors={errors.query} />
          </div>
        </fieldset>
        <fieldset className="mb-3">
          <legend className="h5">{t.edit.channelsLegend}</legend>
          <p className="small">✓ {t.edit.inapp}</p>
          <fieldset className="mb-3">
            <legend className="form-label fs-6 fw-semibold">{t.edit.email}</legend>
            {(
              [
                ["off", t.edit.emailOff],
                ["immediate", t.edit.emailImmediate],
                ["digest", t.edit.emailDigest],
              ] as const
            ).map(([value, label]) => (
              <div className="form-check form-check-inline" key={value}>
                <input
                  className="form-check-input"
                  type="radio"
                  name="email"
                  id={`email-${value}`}
                  value={value}
                  defaultChecked={values.email === value}
                />
                <label className="form-check-label" htmlFor={`email-${value}`}>
                  {label}
                </label>
              </div>
            ))}
          </fieldset>
          <div className="mb-3" style={{ maxWidth: "16rem" }}>
            <label className="form-label" htmlFor="digestHour">
              {t.edit.digestHour}
            </label>
            <select
              id="digestHour"
              name="digestHour"
              className={`form-select${errors.digestHour ? " is-invalid" : ""}`}
              defaultValue={String(Number.isFinite(values.digestHour) ? values.digestHour : 8)}
            >
              {hours.map((hour) => (
                <option key={hour} value={hour}>{`${String(hour).padStart(2, "0")}:00`}</option>
              ))}
            </select>
            <FieldErrors id="digestHour-error" errors={errors.digestHour} />
          </div>
          {groups.length > 0 ? (
            <>
              <div className="mb-3">
                <label className="form-label" htmlFor="chatWebhookUrl">
                  {t.edit.chat}
                </label>
                <input
                  id="chatWebhookUrl"
                  name="chatWebhookUrl"
                  type="url"
                  inputMode="url"
                  className={`form-control${errors.chatWebhookUrl ? " is-invalid" : ""}`}
                  defaultValue={values.chatWebhookUrl}
                  aria-describedby={describedBy("chatWebhookUrl") ?? "chat-help"}
                  placeholder="https://hooks.slack.com/services/…"
                />
                <div id="chat-help" className="form-text">
                  {t.edit.chatHelp}
                </div>
                <FieldErrors id="chatWebhookUrl-error" errors={errors.chatWebhookUrl} />
              </div>
              <div className="mb-3" style={{ maxWidth: "16rem" }}>
                <label className="form-label" htmlFor="language">
                  {t.edit.language}
                </label>
                <select id="language" name="language" className="form-select" defaultValue={values.language}>
                  <option value="es">{t.options.languages.es}</option>
                  <option value="en">{t.options.languages.en}</option>
                </select>
              </div>
            </>
          ) : (
            <input type="hidden" name="language" value={values.language} />
          )}
          <div className="form-check mb-3">
            <input className="form-check-input" type="checkbox" name="muted" id="muted" defaultChecked={values.muted} />
            <label className="form-check-label" htmlFor="muted">
              {t.edit.muted}
            </label>
          </div>
        </fieldset>
        <div className="d-flex flex-wrap gap-2 mb-4">
          <button type="submit" name="intent" value="preview" className="btn btn-outline-primary">
            {t.edit.preview}
          </button>
          <button type="submit" name="intent" value="save" className="btn btn-primary">
            {t.edit.save}
          </button>
        </div>
      </Form>
      {preview ? (
        <section aria-labelledby="preview-title" className="mb-4" data-testid="profile-preview">
          <h2 id="preview-title" className="h5" tabIndex={-1}>
            {t.edit.previewTitle}
          </h2>
          <p role="status">
            {preview.total === 0 ? t.edit.previewNone : fill(t.edit.previewCount, { count: preview.total })}
            {preview.total > preview.items.length
              ? ` ${fill(t.edit.previewMore, { shown: preview.items.length })}`
              : ""}
          </p>
          <ul className="list-group">
            {preview.items.map((item) => (
              <li key={item.id} className="list-group-item">
                <a href={`/app/documents/${item.id}`}>{item.title}</a>
                <div className="small text-body-secondary">
                  {fill(t.edit.published, { date: item.publishedOn })} ·{" "}
                  {fill(t.edit.reasons, { reasons: item.reasons.join("; ") })}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
