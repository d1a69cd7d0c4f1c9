import { data, Form, Link } from "react-router";
import { profileFor } from "../../.server/alerts/profile-admin";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { createProfileFeed, liveProfileFeed, revokeProfileFeed } from "../../.server/feeds/tokens";
import { fill, formatDateTime } from "../../components/app/messages";
import { savedMessages } from "../../components/app/saved/messages";
import type { Route } from "./+types/profile-feed";

export const handle = { layout: "bare" };

/** The profile the member may change (their own, or a group's for admins), or 404; law follows have no feed. */
async function profileOf(params: Route.LoaderArgs["params"], context: Route.LoaderArgs["context"]) {
  const member = requireMember(context, "alerts.use");
  const { database } = context.get(servicesContext).alerts;
  const profile = await profileFor(database, member, params.id);
  if (!profile) throw data("Not found", { status: 404 });
  const lawId = (profile as typeof profile & { lawId?: string | null }).lawId ?? null;
  return { member, profile, follow: lawId !== null };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { member, profile, follow } = await profileOf(params, context);
  const feed = follow
    ? undefined
    : await liveProfileFeed(context.get(servicesContext).api.database.db, {
        organizationId: member.organizationId,
        profileId: profile.id,
      });
  return {
    locale: appLocale(context),
    id: profile.id,
    name: profile.name,
    follow,
    activeSince: feed?.createdAt.toISOString() ?? null,
  };
}

/** intent=create (a new URL, the old one revoked) or intent=revoke; both audited. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const { member, profile, follow } = await profileOf(params, context);
  if (follow) throw data("Not found", { status: 404 });
  const { api } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  const audit = { actor: { id: member.userId, email: member.email }, ip: meta.ip, userAgent: meta.userAgent };
  const target = { organizationId: member.organizationId, profileId: profile.id };
  const form = await request.formData();
  if (form.get("intent") === "revoke") return { revoked: await revokeProfileFeed(api.database.db, target, audit) };
  const created = await createProfileFeed(api.database.db, target, audit);
  // Shown once, in this answer only: never stored in clear, never in a redirect's URL.
  return { url: `${api.siteUrl.replace(/\/$/, "")}/feeds/${created.token}.atom` };
}

export default function ProfileFeed({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, id, name, follow, activeSince } = loaderData;
  const t = savedMessages(locale).feed;
  const url = actionData && "url" in actionData ? actionData.url : undefined;
  const revoked = actionData && "revoked" in actionData ? actionData.revoked : undefined;
  return (
    <>
      <p className="mb-2">
        <Link to={`/app/profiles/${id}`}>← {t.back}</Link>
      </p>
      <h1 className="h3">{fill(t.title, { name })}</h1>
      {follow ? (
        <p>{t.follows}</p>
      ) : (
        <>
          <p className="text-body-secondary">{t.lead}</p>
          <p className="alert alert-warning">{t.secretWarning}</p>
          {url ? (
            <div className="alert alert-success" role="status">
              <p className="mb-2">{t.created}</p>
              <label htmlFor="feed-url" className="form-label">
                {t.copyLabel}
              </label>
              <input
                id="feed-url"
                className="form-control font-monospace"
                readOnly
                value={url}
                data-testid="feed-url"
              />
            </div>
          ) : null}
          {revoked !== undefined ? (
            <div className="alert alert-info" role="status">
              {revoked ? t.revoked : t.nothingToRevoke}
            </div>
          ) : null}
          <p data-testid="feed-state">
            {activeSince ? fill(t.active, { date: formatDateTime(activeSince, locale) }) : t.none}
          </p>
          <p className="small text-body-secondary">{t.standing}</p>
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
      )}
    </>
  );
}
