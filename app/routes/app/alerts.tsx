import { Form, Link } from "react-router";
import { markAllRead, markRead, recentAlerts } from "../../.server/alerts/inbox";
import { listProfiles } from "../../.server/alerts/profile-admin";
import { readWhy, whyText } from "../../.server/alerts/why";
import { appLocale, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { FormAlert } from "../../components/app/form-field";
import { alertMessages, fill, formatDateTime } from "../../components/app/messages";
import type { Route } from "./+types/alerts";

export const handle = { layout: "bare" };

const pageSize = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "alerts.use");
  const url = new URL(request.url);
  const unreadOnly = url.searchParams.get("unread") === "1";
  const before = Number(url.searchParams.get("before"));
  const { db } = context.get(servicesContext).alerts.database;
  const locale = appLocale(context);
  const rows = await recentAlerts(db, member.userId, {
    limit: pageSize + 1,
    unreadOnly,
    ...(Number.isSafeInteger(before) && before > 0 ? { beforeId: before } : {}),
  });
  const items = rows.slice(0, pageSize).map((row) => {
    const why = readWhy(row.why);
    return {
      alertId: row.alertId,
      documentId: row.documentId,
      title: row.title,
      profileId: row.profileId,
      profileName: row.profileName,
      createdAt: row.createdAt.toISOString(),
      read: row.readAt !== null,
      // Why it matched, in the reader's language (decision 0148).
      why: why ? whyText(why, locale, row.profileName) : null,
    };
  });
  // With no alerts, the page says why: no profile yet, or profiles that found nothing new.
  const hasProfiles =
    items.length > 0 || (await listProfiles(context.get(servicesContext).alerts.database, member)).length > 0;
  return {
    locale,
    hasProfiles,
    unreadOnly,
    items,
    nextBefore: rows.length > pageSize ? (items.at(-1)?.alertId ?? null) : null,
  };
}

/** Mark one alert read (`intent=read`, `id`) or all of them (`intent=read-all`): plain POST forms. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "alerts.use");
  const t = alertMessages(appLocale(context));
  const form = await request.formData();
  const { db } = context.get(servicesContext).alerts.database;
  const intent = String(form.get("intent") ?? "");
  if (intent === "read") {
    const id = Number(form.get("id"));
    if (!Number.isSafeInteger(id) || id <= 0) return { done: undefined, marked: 0 };
    const marked = await markRead(db, member.userId, [id]);
    return { done: t.inbox.markedOne, marked };
  }
  if (intent === "read-all") {
    const marked = await markAllRead(db, member.userId);
    return { done: fill(t.inbox.markedAll, { count: marked }), marked };
  }
  return { done: undefined, marked: 0 };
}

export default function Alerts({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, items, unreadOnly, nextBefore } = loaderData;
  const t = alertMessages(locale);
  const anyUnread = items.some((item) => !item.read);
  return (
    <>
      <h1 className="h3">{t.inbox.title}</h1>
      <p className="text-body-secondary">{t.inbox.lead}</p>
      <FormAlert kind="success">{actionData?.done}</FormAlert>
      <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
        <Link to={unreadOnly ? "/app/alerts" : "/app/alerts?unread=1"} className="btn btn-sm btn-outline-secondary">
          {unreadOnly ? t.inbox.showAll : t.inbox.unreadOnly}
        </Link>
        {anyUnread || unreadOnly ? (
          <Form method="post" className="ms-sm-auto">
            <input type="hidden" name="intent" value="read-all" />
            <button type="submit" className="btn btn-sm btn-primary">
              {t.inbox.markAll}
            </button>
          </Form>
        ) : null}
      </div>
      {items.length === 0 ? (
        <p className="text-body-secondary">
          {loaderData.hasProfiles ? (
            <>
              {t.inbox.emptyWithProfiles} <Link to="/app/profiles">{t.inbox.seeProfiles}</Link>
            </>
          ) : (
            <>
              {t.inbox.empty} <Link to="/app/profiles/new">{t.inbox.createProfile}</Link>
            </>
          )}
        </p>
      ) : (
        <ul className="list-group mb-3" data-testid="alert-list">
          {items.map((item) => (
            <li
              key={item.alertId}
              className="list-group-item d-flex flex-wrap gap-2 align-items-start"
              data-testid="alert-item"
            >
              <div className="me-auto" style={{ minWidth: 0, flex: "1 1 16rem" }}>
                <a href={`/app/documents/${item.documentId}`} className={item.read ? "text-body" : "fw-semibold"}>
                  {item.title}
                </a>
                {item.read ? null : <span className="badge text-bg-primary ms-2">{t.inbox.unreadBadge}</span>}
                {item.why ? (
                  <p className="small mb-1 mt-1" data-testid="alert-why">
                    {item.why}
                  </p>
                ) : null}
                <div className="small text-body-secondary">
                  {item.profileName ? `${t.inbox.profile}: ${item.profileName} · ` : ""}
                  {t.inbox.received} {formatDateTime(item.createdAt, locale)}
                </div>
              </div>
              {item.read ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="read" />
                  <input type="hidden" name="id" value={item.alertId} />
                  <button
                    type="submit"
                    className="btn btn-sm btn-outline-secondary"
                    aria-label={`${t.inbox.markRead}: ${item.title}`}
                  >
                    {t.inbox.markRead}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      )}
      {nextBefore ? (
        <Link to={`/app/alerts?before=${nextBefore}${unreadOnly ? "&unread=1" : ""}`}>{t.inbox.older}</Link>
      ) : null}
    </>
  );
}
