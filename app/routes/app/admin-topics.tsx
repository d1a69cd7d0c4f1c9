import { Form } from "react-router";
import { recordAudit } from "../../.server/audit/record";
import { invalidForm } from "../../.server/auth/form-errors";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import {
  createTopic,
  deleteTopic,
  listTopics,
  type TopicActor,
  topicInputSchema,
  updateTopic,
} from "../../.server/classify/topics";
import { servicesContext } from "../../.server/context";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import type { Locale } from "../../i18n/locales";
import { fieldErrorsOf } from "../../lib/field-errors";
import { plural } from "../../lib/plural";
import { areas } from "../../lib/taxonomy";
import type { Route } from "./+types/admin-topics";

export const handle = { layout: "bare" };

export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "topics.manage");
  const { api } = context.get(servicesContext);
  return { locale: appLocale(context), topics: await listTopics(api.database.db, member.organizationId) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "topics.manage");
  const locale = appLocale(context);
  const t = appMessages(locale);
  const services = context.get(servicesContext);
  const { db } = services.api.database;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const meta = requestMeta(request, context);
  const actor: TopicActor = {
    organizationId: member.organizationId,
    userId: member.userId,
    email: member.email,
    ip: meta.ip,
    userAgent: meta.userAgent,
  };
  const record = (tx: Parameters<typeof recordAudit>[0], event: Parameters<typeof recordAudit>[1]) =>
    recordAudit(tx, event);
  if (intent === "delete") {
    if (!(await deleteTopic(db, record, actor, id))) return invalidForm({ id: [t.errors.not_found] });
    return { done: t.topics.deleted };
  }
  if (intent !== "create" && intent !== "update") return invalidForm({ intent: ["unknown"] });
  const parsed = topicInputSchema(locale).safeParse({
    name: form.get("name") ?? "",
    keywords: form.get("keywords") ?? "",
    area: form.get("area") ?? "",
  });
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error.issues, { fallback: "form" });
    return invalidForm(intent === "update" ? { ...errors, id: [id] } : errors);
  }
  if (intent === "create") await createTopic(db, record, actor, parsed.data);
  else if (!(await updateTopic(db, record, actor, id, parsed.data))) return invalidForm({ id: [t.errors.not_found] });
  // Label the collection again for this organisation (a background job where jobs run).
  await services.classification.topicsChanged(member.organizationId);
  return { done: t.topics.saved };
}

function TopicFields({
  locale,
  prefix,
  values,
  errors,
}: {
  locale: Locale;
  prefix: string;
  values?: { name: string; keywords: string[]; area: string | null };
  errors?: Record<string, string[]> | undefined;
}) {
  const t = appMessages(locale);
  const keywordsId = `${prefix}-keywords`;
  const keywordErrors = errors?.keywords;
  return (
    <>
      <FormField
        name="name"
        id={`${prefix}-name`}
        required
        maxLength={80}
        defaultValue={values?.name}
        label={t.topics.name}
        errors={errors?.name}
      />
      <div className="mb-3">
        <label htmlFor={keywordsId} className="form-label">
          {t.topics.keywords}
        </label>
        <textarea
          id={keywordsId}
          name="keywords"
          rows={4}
          required
          className={`form-control${keywordErrors ? " is-invalid" : ""}`}
          aria-invalid={keywordErrors ? true : undefined}
          aria-describedby={`${keywordsId}-help${keywordErrors ? ` ${keywordsId}-error` : ""}`}
          defaultValue={values?.keywords.join("\n")}
        />
        <div id={`${keywordsId}-help`} className="form-text">
          {t.topics.keywordsHelp}
        </div>
        {keywordErrors ? (
          <div id={`${keywordsId}-error`} className="invalid-feedback">
            {keywordErrors.join(" ")}
          </div>
        ) : null}
      </div>
      <div className="mb-3">
        <label htmlFor={`${prefix}-area`} className="form-label">
          {t.topics.area}
        </label>
        <select id={`${prefix}-area`} name="area" className="form-select" defaultValue={values?.area ?? ""}>
          <option value="">{t.topics.noArea}</option>
          {areas.map((area) => (
            <option key={area.id} value={area.id}>
              {area.name[locale]}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

export default function AdminTopics({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, topics } = loaderData;
  const t = appMessages(locale);
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const failure = actionData && !("done" in actionData) ? actionData : undefined;
  const failedId = failure?.errors?.id?.[0];
  const createErrors = failure && !failedId ? failure.errors : undefined;
  const areaName = (id: string | null) => areas.find((area) => area.id === id)?.name[locale];
  return (
    <>
      <h1 className="h3">{t.topics.title}</h1>
      <p className="text-body-secondary">{t.topics.lead}</p>
      <FormAlert kind="success">{done}</FormAlert>
      <div className="row g-4">
        <section className="col-lg-5" aria-labelledby="topic-new">
          <h2 id="topic-new" className="h5">
            {t.topics.create}
          </h2>
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="create" />
            <TopicFields locale={locale} prefix="new-topic" errors={createErrors} />
            <button type="submit" className="btn btn-primary">
              {t.topics.create}
            </button>
          </Form>
        </section>
        <section className="col-lg-7" aria-labelledby="topic-list">
          <h2 id="topic-list" className="h5">
            {t.topics.title}
          </h2>
          {topics.length === 0 ? <p>{t.topics.none}</p> : null}
          {topics.map((topic) => (
            <article key={topic.id} className="card mb-3" data-testid="topic-card">
              <div className="card-body">
                <h3 className="h6 mb-1">{topic.name}</h3>
                <p className="small text-body-secondary mb-2">
                  {[areaName(topic.area), plural(locale, t.topics.matched, topic.documents)]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
                <ul className="list-inline mb-2">
                  {topic.keywords.map((keyword) => (
                    <li key={keyword} className="list-inline-item badge text-bg-secondary fw-normal">
                      {keyword}
                    </li>
                  ))}
                </ul>
                <details open={failedId === topic.id}>
                  <summary className="btn btn-sm btn-outline-primary">
                    {t.topics.edit}
                    <span className="visually-hidden"> {topic.name}</span>
                  </summary>
                  <Form method="post" noValidate className="mt-3">
                    <input type="hidden" name="intent" value="update" />
                    <input type="hidden" name="id" value={topic.id} />
                    <TopicFields
                      locale={locale}
                      prefix={`topic-${topic.id}`}
                      values={topic}
                      errors={failedId === topic.id ? failure?.errors : undefined}
                    />
                    <button type="submit" className="btn btn-primary btn-sm">
                      {t.topics.save}
                    </button>
                  </Form>
                </details>
                <Form method="post" className="mt-2">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={topic.id} />
                  <button type="submit" className="btn btn-sm btn-outline-danger">
                    {t.topics.delete}
                    <span className="visually-hidden"> {topic.name}</span>
                  </button>
                </Form>
              </div>
            </article>
          ))}
        </section>
      </div>
    </>
  );
}
