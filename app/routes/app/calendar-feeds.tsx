import { Form } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import type { MemberInfo } from "../../.server/auth/permissions";
import { createCalendarFeed, type FeedOwner, liveCalendarFeed, revokeCalendarFeed } from "../../.server/calendar/feeds";
import { servicesContext } from "../../.server/context";
import { evidenceMessages } from "../../components/app/evidence/messages";
import { fill, formatDateTime } from "../../components/app/messages";
import type { Route } from "./+types/calendar-feeds";

export const handle = { layout: "bare" };

/** One module for both pages: /app/account/calendar (the member's feed) and /app/admin/calendar (the organisation's, admins). */
function ownerFor(request: Request, context: Route.LoaderArgs["context"]): { member: MemberInfo; owner: FeedOwner } {
  const organisation = new URL(request.url).pathname.startsWith("/app/admin/");
  const member = requireMember(context, organisation ? "tokens.manage" : "account.manage");
  return {
    member,
    owner: { organizationId: member.organizationId, userId: organisation ? null : member.userId },
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { owner } = ownerFor(request, context);
  const feed = await liveCalendarFeed(context.get(servicesContext).api.database.db, owner);
  return {
    locale: appLocale(context),
    organisation: owner.userId === null,
    activeSince: feed?.createdAt.toISOString() ?? null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { member, owner } = ownerFor(request, context);
  const { api } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  const audit = { actor: { id: member.userId, email: member.email }, ip: meta.ip, userAgent: meta.userAgent };
  const form = await request.formData();
  if (form.get("intent") === "revoke") {
    return { revoked: await revokeCalendarFeed(api.database.db, owner, audit) };
  }
  const created = await createCalendarFeed(api.database.db, owner, audit);
  // Shown once, in this answer only: never stored in clear, never in a redirect's URL.
  return { url: `${api.siteUrl.replace(/\/$/, "")}/calendar/${created.token}.ics` };
}

export default function CalendarFeeds({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, organisation, activeSince } = loaderData;
  const t = evidenceMessages(locale).calendar;
  const url = actionData && "url" in actionData ? actionData.url : undefined;
  const revoked = actionData && "revoked" in actionData ? actionData.revoked : undefined;
  return (
    <>
      <h1 className="h3">{organisation ? t.orgTitle : t.userTitle}</h1>
      <p className="text-body-secondary">{organisation ? t.orgLead : t.userLead}</p>
      <p className="alert alert-warning">{t.secretWarning}</p>
      {url ? (
        <div className="alert alert-success" role="status">
          <p className="mb-2">{t.created}</p>
          <label htmlFor="calendar-url" className="form-label">
            {t.copyLabel}
          </label>
          <input
            id="calendar-url"
            className="form-control font-monospace"
            readOnly
            value={url}
            data-testid="calendar-url"
          />
        </div>
      ) : null}
      {revoked !== undefined ? (
        <div className="alert alert-info" role="status">
          {revoked ? t.revoked : t.nothingToRevoke}
        </div>
      ) : null}
      <p data-testid="calendar-state">
        {activeSince ? fill(t.active, { date: formatDateTime(activeSince, locale) }) : t.none}
      </p>
      <div className="d-flex flex-wrap gap-2">
        <Form method="post">
          <input type="hidden" name="intent" value="create" />
          <button type="submit" className="btn btn-primary">
            {activeSince ? t.replace : t.create}
          </button>
        </Form>
        {activeSince ? (
          <Form method="post">
            <input type="hidden" name="intent" value="revoke" />
            <button type="submit" className="btn btn-outline-danger">
              {t.revoke}
            </button>
          </Form>
        ) : null}
      </div>
    </>
  );
}
