import { data, Form } from "react-router";
import { webhookEvents, webhookEventTypes } from "../../.server/alerts/channels/webhook/events";
import { webhookLimitMessage, webhookSlotFree } from "../../.server/alerts/webhook-quota";
import {
  awaitDelivery,
  createWebhook,
  deleteWebhook,
  disableWebhook,
  enableWebhook,
  listWebhooks,
  queueWebhookTest,
  webhookDeliveries,
  webhookInputSchema,
} from "../../.server/alerts/webhooks";
import { recordAudit } from "../../.server/audit/record";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { validateOutboundUrl } from "../../.server/net/outbound";
import { CardTable } from "../../components/app/card-table";
import { FormAlert } from "../../components/app/form-field";
import { fill, formatDateTime } from "../../components/app/messages";
import { webhooks as webhooksEn } from "../../i18n/en/webhooks";
import { type WebhooksMessages, webhooks as webhooksEs } from "../../i18n/es/webhooks";
import type { Locale } from "../../i18n/locales";
import type { Route } from "./+types/admin-webhooks";

export const handle = { layout: "bare" };

function messages(locale: Locale): WebhooksMessages {
  return locale === "en" ? webhooksEn : webhooksEs;
}

/** How long the page waits for a test delivery's answer (the worker's POST times out at 10 s). */
const testWaitMs = 15_000;

export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "webhooks.manage");
  const db = context.get(servicesContext).alerts.database.db;
  const hooks = await listWebhooks(db, member.organizationId);
  const recent = await Promise.all(hooks.map((hook) => webhookDeliveries(db, member.organizationId, hook.id, 10)));
  return {
    locale: appLocale(context),
    // The catalogue as it is (channels/webhook/events.ts): a new event type appears here by itself.
    events: webhookEventTypes.map((type) => ({ type, meaning: webhookEvents[type] })),
    hooks: hooks.map((hook, index) => ({
      id: hook.id,
      url: hook.url,
      events: hook.events,
      status: hook.status,
      createdAt: hook.createdAt,
      disabledAt: hook.disabledAt,
      failingSince: hook.failingSince,
      failingError: hook.failingError,
      deliveries: recent[index] ?? [],
    })),
  };
}

type ActionResult =
  | { done: string }
  | { created: { id: string; url: string; secret: string } }
  | { test: { ok: boolean; message: string } }
  | { failed: string };

/** A URL the outbound guard refuses because it points inside (loopback, private, link-local, a local name): its host. */
async function internalHost(url: string): Promise<string | undefined> {
  const checked = await validateOutboundUrl(url, { allowPrivate: false });
  if (checked.ok || !/not (a )?public|local name/.test(checked.reason)) return undefined;
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/** intent=create | test | disable | enable | delete; each audited with the member as actor, as the API does with its token. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "webhooks.manage");
  const locale = appLocale(context);
  const t = messages(locale);
  const { alerts, api } = context.get(servicesContext);
  const db = alerts.database.db;
  const meta = requestMeta(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const audit = (action: string, objectId: string, detail: Record<string, unknown> = {}) => ({
    organizationId: member.organizationId,
    actor: { id: member.userId, email: member.email },
    action,
    object: { type: "webhook", id: objectId },
    ip: meta.ip,
    userAgent: meta.userAgent,
    detail,
  });

  if (intent === "create") {
    const url = String(form.get("url") ?? "").trim();
    const events = form.getAll("events").map(String);
    const parsed = await webhookInputSchema(locale, { allowPrivate: api.outbound.allowPrivateUrls }).safeParseAsync({
      url,
      events,
    });
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? "url");
        if (field === "url") {
          const host = await internalHost(url);
          errors.url = [host ? fill(t.create.internal, { host }) : t.create.url_invalid];
        } else if (field === "events") errors.events = [t.create.events_invalid];
      }
      return data({ errors, values: { url, events } }, { status: 422 });
    }
    const limit = api.outbound.maxWebhooksPerOrganization;
    const created = await db.transaction(async (tx) => {
      if (!(await webhookSlotFree(tx, member.organizationId, limit))) return undefined;
      const webhook = await createWebhook(tx, member.organizationId, parsed.data);
      await recordAudit(tx, audit("webhook.created", webhook.id, { url: webhook.url, events: webhook.events }));
      return webhook;
    });
    if (!created) return data({ failed: webhookLimitMessage(locale, limit) } as ActionResult, { status: 422 });
    return { created: { id: created.id, url: created.url, secret: created.secret } } as ActionResult;
  }

  if (intent === "test") {
    const deliveryId = await db.transaction(async (tx) => {
      const queued = await queueWebhookTest(tx, member.organizationId, id);
      if (queued) await recordAudit(tx, audit("webhook.tested", id, { deliveryId: queued }));
      return queued;
    });
    if (!deliveryId) return data({ failed: t.done.notFound } as ActionResult, { status: 404 });
    alerts.worker.wake();
    const result = await awaitDelivery(db, deliveryId, testWaitMs);
    if (result?.status === "sent")
      return { test: { ok: true, message: fill(t.done.testSent, { id: deliveryId }) } } as ActionResult;
    if (result?.status === "dead")
      return {
        test: { ok: false, message: fill(t.done.testFailed, { error: result.lastError ?? "—" }) },
      } as ActionResult;
    return { test: { ok: false, message: t.done.testPending } } as ActionResult;
  }

  if (intent === "disable" || intent === "enable") {
    const outcome = await db.transaction(async (tx) => {
      const changed =
        intent === "enable"
          ? await enableWebhook(tx, member.organizationId, id, alerts.worker.retryWindowMs)
          : await disableWebhook(tx, member.organizationId, id).then((webhook) => webhook && { webhook, requeued: 0 });
      if (changed)
        await recordAudit(
          tx,
          audit(intent === "enable" ? "webhook.enabled" : "webhook.disabled", id, { requeued: changed.requeued }),
        );
      return changed;
    });
    if (!outcome) return data({ failed: t.done.notFound } as ActionResult, { status: 404 });
    if (outcome.requeued) alerts.worker.wake();
    return {
      done: intent === "enable" ? fill(t.done.enabled, { count: outcome.requeued }) : t.done.disabled,
    } as ActionResult;
  }

  if (intent === "delete") {
    const deleted = await db.transaction(async (tx) => {
      if (!(await deleteWebhook(tx, member.organizationId, id))) return false;
      await recordAudit(tx, audit("webhook.deleted", id));
      return true;
    });
    if (!deleted) return data({ failed: t.done.notFound } as ActionResult, { status: 404 });
    return { done: t.done.deleted } as ActionResult;
  }
  return data({ failed: t.done.notFound } as ActionResult, { status: 400 });
}

const statusClass = { active: "text-bg-success", disabled: "text-bg-secondary", failing: "text-bg-danger" } as const;

export default function AdminWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, events, hooks } = loaderData;
  const t = messages(locale);
  const result = actionData as
    | (ActionResult & { errors?: undefined })
    | { errors: Record<string, string[]>; values: { url: string; events: string[] } }
    | undefined;
  const errors = result && "errors" in result ? result.errors : undefined;
  const values = result && "values" in result ? result.values : undefined;
  const created = result && "created" in result ? result.created : undefined;
  const test = result && "test" in result ? result.test : undefined;
  const eventName = (type: string) => t.eventNames[type] ?? type;
  const urlError = errors?.url?.join(" ");
  const eventsError = errors?.events?.join(" ");
  const chosen = new Set(values?.events ?? ["document.matched"]);
  return (
    <>
      <h1 className="h3">{t.title}</h1>
      <p className="text-body-secondary">{t.lead}</p>
      {created ? (
        <div className="alert alert-success" role="status" data-testid="webhook-secret">
          <p className="mb-1 fw-semibold">{t.secret.title}</p>
          <code className="d-block text-break user-select-all mb-2 text-success-emphasis" data-testid="new-secret">
            {created.secret}
          </code>
          <p className="mb-0 small">{t.secret.once}</p>
        </div>
      ) : null}
      {test ? (
        <div className={`alert ${test.ok ? "alert-success" : "alert-warning"}`} role="status" data-testid="test-result">
          {test.message}
        </div>
      ) : null}
      <FormAlert kind="success">{result && "done" in result ? result.done : undefined}</FormAlert>
      <FormAlert kind="danger">{result && "failed" in result ? result.failed : undefined}</FormAlert>

      <section className="mb-4" aria-labelledby="webhook-create-title">
        <h2 id="webhook-create-title" className="h5">
          {t.create.title}
        </h2>
        {/* A new key after each creation: the form starts empty for the next webhook. */}
        <Form method="post" noValidate key={created?.id ?? "new"}>
          <input type="hidden" name="intent" value="create" />
          <div className="mb-3">
            <label htmlFor="webhook-url" className="form-label">
              {t.create.url}
            </label>
            <input
              id="webhook-url"
              name="url"
              type="url"
              inputMode="url"
              autoComplete="off"
              required
              maxLength={2000}
              defaultValue={values?.url ?? ""}
              className={`form-control${urlError ? " is-invalid" : ""}`}
              aria-invalid={urlError ? true : undefined}
              aria-describedby={urlError ? "webhook-url-hint webhook-url-error" : "webhook-url-hint"}
            />
            <div id="webhook-url-hint" className="form-text">
              {t.create.urlHint}
            </div>
            {urlError ? (
              <div id="webhook-url-error" className="invalid-feedback d-block">
                {urlError}
              </div>
            ) : null}
          </div>
          <fieldset
            className="mb-3"
            aria-describedby={eventsError ? "webhook-events-hint webhook-events-error" : "webhook-events-hint"}
          >
            <legend className="form-label fs-6">{t.create.events}</legend>
            <p id="webhook-events-hint" className="form-text mt-0">
              {t.create.eventsHint}
            </p>
            {events.map(({ type }) => (
              <div className="form-check" key={type}>
                <input
                  className={`form-check-input${eventsError ? " is-invalid" : ""}`}
                  type="checkbox"
                  name="events"
                  value={type}
                  id={`webhook-event-${type}`}
                  defaultChecked={chosen.has(type)}
                />
                <label className="form-check-label" htmlFor={`webhook-event-${type}`}>
                  {eventName(type)} <code className="small">{type}</code>
                </label>
              </div>
            ))}
            {eventsError ? (
              <div id="webhook-events-error" className="invalid-feedback d-block">
                {eventsError}
              </div>
            ) : null}
          </fieldset>
          <button type="submit" className="btn btn-primary">
            {t.create.submit}
          </button>
        </Form>
      </section>

      <section aria-labelledby="webhook-list-title">
        <h2 id="webhook-list-title" className="h5">
          {t.list.title}
        </h2>
        {hooks.length === 0 ? <p className="text-body-secondary">{t.list.empty}</p> : null}
        {hooks.map((hook) => {
          const headingId = `webhook-${hook.id}-title`;
          return (
            <article
              key={hook.id}
              className="card mb-4"
              aria-labelledby={headingId}
              data-testid="webhook"
              data-webhook-id={hook.id}
            >
              <div className="card-body">
                <div className="d-flex flex-wrap gap-2 align-items-start justify-content-between mb-2">
                  <h3 id={headingId} className="h6 text-break mb-0">
                    {hook.url}
                  </h3>
                  <span className={`badge ${statusClass[hook.status]}`} data-testid="webhook-status">
                    {t.statuses[hook.status]}
                  </span>
                </div>
                {hook.status === "failing" ? (
                  <p className="text-danger-emphasis small" data-testid="webhook-failing">
                    {fill(t.failing, {
                      since: formatDateTime(hook.failingSince, locale),
                      error: hook.failingError ?? "—",
                    })}
                  </p>
                ) : null}
                {hook.status === "disabled" ? (
                  <p className="text-body-secondary small">
                    {fill(t.disabledSince, { since: formatDateTime(hook.disabledAt, locale) })}
                  </p>
                ) : null}
                <dl className="row small mb-2">
                  <dt className="col-sm-3">{t.list.events}</dt>
                  <dd className="col-sm-9">{hook.events.map(eventName).join(" · ")}</dd>
                  <dt className="col-sm-3">{t.list.created}</dt>
                  <dd className="col-sm-9">{formatDateTime(hook.createdAt, locale)}</dd>
                </dl>
                <div className="d-flex flex-wrap gap-2 align-items-start mb-3">
                  <Form method="post">
                    <input type="hidden" name="id" value={hook.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="test"
                      className="btn btn-sm btn-outline-primary"
                      aria-describedby={headingId}
                    >
                      {t.actions.test}
                    </button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="id" value={hook.id} />
                    {hook.status === "active" ? (
                      <button
                        type="submit"
                        name="intent"
                        value="disable"
                        className="btn btn-sm btn-outline-secondary"
                        aria-describedby={headingId}
                      >
                        {t.actions.disable}
                      </button>
                    ) : (
                      <button
                        type="submit"
                        name="intent"
                        value="enable"
                        className="btn btn-sm btn-primary"
                        aria-describedby={headingId}
                      >
                        {hook.status === "failing" ? t.actions.resume : t.actions.enable}
                      </button>
                    )}
                  </Form>
                  <details className="webhook-delete">
                    <summary className="btn btn-sm btn-outline-danger" aria-describedby={headingId}>
                      {t.actions.delete}
                    </summary>
                    <div className="border border-danger-subtle rounded p-2 mt-2">
                      <p className="small mb-2">{t.actions.deleteWarning}</p>
                      <Form method="post">
                        <input type="hidden" name="id" value={hook.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="delete"
                          className="btn btn-sm btn-danger"
                          aria-describedby={headingId}
                        >
                          {t.actions.deleteConfirm}
                        </button>
                      </Form>
                    </div>
                  </details>
                </div>
                <h4 className="h6">{t.deliveries.title}</h4>
                {hook.deliveries.length === 0 ? (
                  <p className="text-body-secondary small mb-0">{t.deliveries.empty}</p>
                ) : (
                  <div className="table-responsive">
                    <CardTable
                      labels={[
                        t.deliveries.event,
                        t.deliveries.status,
                        t.deliveries.attempts,
                        t.deliveries.next,
                        t.deliveries.error,
                        t.deliveries.created,
                      ]}
                      className="table table-sm align-middle mb-0"
                      data-testid="webhook-deliveries"
                    >
                      <thead>
                        <tr>
                          <th scope="col">{t.deliveries.event}</th>
                          <th scope="col">{t.deliveries.status}</th>
                          <th scope="col">{t.deliveries.attempts}</th>
                          <th scope="col">{t.deliveries.next}</th>
                          <th scope="col">{t.deliveries.error}</th>
                          <th scope="col">{t.deliveries.created}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {hook.deliveries.map((row) => (
                          <tr key={row.id} data-testid="webhook-delivery" data-status={row.status}>
                            <td>
                              {row.type === "webhook.test" ? t.deliveries.test : eventName(row.type)}{" "}
                              <code className="small text-break">{row.id}</code>
                            </td>
                            <td>{t.deliveries.statuses[row.status] ?? row.status}</td>
                            <td>{row.attempts}</td>
                            <td className="text-nowrap">
                              {row.nextAttemptAt ? formatDateTime(row.nextAttemptAt, locale) : "—"}
                            </td>
                            <td className="text-break small">{row.lastError ? <code>{row.lastError}</code> : "—"}</td>
                            <td className="text-nowrap">{formatDateTime(row.createdAt, locale)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </CardTable>
                  </div>
                )}
              </div>
            </article>
          );
        })}
      </section>
    </>
  );
}
