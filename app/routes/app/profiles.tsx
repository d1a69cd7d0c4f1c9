import { data, Form, Link } from "react-router";
import { deleteAuditedProfile, listProfiles, muteAuditedProfile, profileFor } from "../../.server/alerts/profile-admin";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { FormAlert } from "../../components/app/form-field";
import { type AlertsMessages, alertMessages, fill } from "../../components/app/messages";
import { savedMessages } from "../../components/app/saved/messages";
import type { Locale } from "../../i18n/locales";
import { plural } from "../../lib/plural";
import { areas, jurisdictions, kinds } from "../../lib/taxonomy";
import type { Route } from "./+types/profiles";

export const handle = { layout: "bare" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "alerts.use");
  const { database } = context.get(servicesContext).alerts;
  const profiles = await listProfiles(database, member);
  const done = new URL(request.url).searchParams.get("done");
  return {
    locale: appLocale(context),
    done: done === "saved" ? ("saved" as const) : null,
    profiles: profiles.map((profile) => ({
      id: profile.id,
      name: profile.name,
      groupName: profile.groupId ? (profile.groupName ?? "—") : null,
      areas: profile.areas,
      jurisdictions: profile.jurisdictions,
      kinds: profile.kinds,
      sources: profile.sources,
      minRelevance: profile.minRelevance,
      keywords: profile.keywords,
      query: profile.query,
      emailMode: profile.emailMode,
      digestHour: profile.digestHour,
      chat: Boolean(profile.chatWebhookUrl),
      muted: profile.muted,
      lawId: profile.lawId,
      lawBlocks: profile.lawBlocks,
    })),
  };
}

/** intent=mute|unmute|delete on one profile (`id`): plain POST forms, audited. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "alerts.use");
  const t = alertMessages(appLocale(context));
  const { database } = context.get(servicesContext).alerts;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const profile = await profileFor(database, member, String(form.get("id") ?? ""));
  if (!profile) throw data("Not found", { status: 404 });
  const meta = requestMeta(request, context);
  if (intent === "mute" || intent === "unmute") {
    await muteAuditedProfile(database, member, profile, intent === "mute", meta);
    return { done: intent === "mute" ? t.profiles.mutedDone : t.profiles.unmutedDone };
  }
  if (intent === "delete") {
    await deleteAuditedProfile(database, member, profile, meta);
    return { done: t.profiles.deleted };
  }
  throw data("Bad request", { status: 400 });
}

type Item = Awaited<ReturnType<typeof loader>>["profiles"][number];

function summary(item: Item, t: AlertsMessages, locale: Locale): { filters: string; channels: string } {
  const name = <T extends { id: string; name: { es: string; en: string } }>(list: readonly T[], id: string) =>
    list.find((entry) => entry.id === id)?.name[locale] ?? id;
  const parts = [
    ...item.areas.map((id) => name(areas, id)),
    ...item.jurisdictions.map((id) => name(jurisdictions, id)),
    ...item.kinds.map((id) => name(kinds, id)),
    ...item.sources.map((id) => t.options.sources[id as "boe"] ?? id),
    ...(item.minRelevance === 3 ? [t.edit.relevance.high] : item.minRelevance === 2 ? [t.edit.relevance.medium] : []),
    ...item.keywords.map((keyword) => `«${keyword}»`),
    ...(item.query ? [`${t.edit.query}: ${item.query}`] : []),
  ];
  const channels = [
    t.deliveries.channels.inapp,
    ...(item.emailMode === "immediate" ? [`${t.edit.email}: ${t.edit.emailImmediate}`] : []),
    ...(item.emailMode === "digest"
      ? [`${t.edit.email}: ${t.edit.emailDigest} ${String(item.digestHour).padStart(2, "0")}:00`]
      : []),
    ...(item.chat ? [t.deliveries.channels.chat] : []),
  ];
  return { filters: parts.length ? parts.join(", ") : t.profiles.any, channels: channels.join(", ") };
}

function ProfileCard({ item, locale }: { item: Item; locale: Locale }) {
  const t = alertMessages(locale);
  const feedLink = savedMessages(locale).feed.link;
  const { filters, channels } = summary(item, t, locale);
  return (
    <li className="list-group-item" data-testid="profile-item">
      <div className="d-flex flex-wrap gap-2 align-items-baseline">
        <h3 className="h6 mb-1 me-auto">
          {item.name}{" "}
          <span className={`badge ${item.muted ? "text-bg-secondary" : "text-bg-success"}`}>
            {item.muted ? t.profiles.muted : t.profiles.active}
          </span>
        </h3>
        <span className="small text-body-secondary">
          {t.profiles.owner}: {item.groupName ? fill(t.profiles.group, { name: item.groupName }) : t.profiles.me}
        </span>
      </div>
      {item.lawId ? (
        // A law follow is not a catch-all profile: it names the law and what of it is followed.
        <p className="small mb-1" data-testid="profile-follow">
          <span className="fw-semibold">{t.profiles.follows}:</span>{" "}
          <Link to={`/app/laws/${encodeURIComponent(item.lawId)}`}>{item.lawId}</Link>,{" "}
          {item.lawBlocks.length === 0
            ? t.profiles.followWhole
            : plural(locale, t.profiles.followParts, item.lawBlocks.length)}
        </p>
      ) : (
        <p className="small mb-1">
          <span className="fw-semibold">{t.profiles.filters}:</span> {filters}
        </p>
      )}
      <p className="small mb-2">
        <span className="fw-semibold">{t.profiles.channels}:</span> {channels}
      </p>
      <div className="d-flex flex-wrap gap-2">
        {item.lawId ? (
          <Link to={`/app/laws/${encodeURIComponent(item.lawId)}`} className="btn btn-sm btn-outline-primary">
            {t.profiles.followManage}
          </Link>
        ) : (
          <>
            <Link
              to={`/app/profiles/${item.id}`}
              className="btn btn-sm btn-outline-primary"
              aria-label={`${t.profiles.edit}: ${item.name}`}
            >
              {t.profiles.edit}
            </Link>
            <Link
              to={`/app/profiles/${item.id}/feed`}
              className="btn btn-sm btn-outline-secondary"
              aria-label={`${feedLink}: ${item.name}`}
            >
              {feedLink}
            </Link>
          </>
        )}
        <Form method="post">
          <input type="hidden" name="id" value={item.id} />
          <input type="hidden" name="intent" value={item.muted ? "unmute" : "mute"} />
          <button
            type="submit"
            className="btn btn-sm btn-outline-secondary"
            aria-label={`${item.muted ? t.profiles.unmute : t.profiles.mute}: ${item.name}`}
          >
            {item.muted ? t.profiles.unmute : t.profiles.mute}
          </button>
        </Form>
        <Form method="post">
          <input type="hidden" name="id" value={item.id} />
          <input type="hidden" name="intent" value="delete" />
          <button
            type="submit"
            className="btn btn-sm btn-outline-danger"
            aria-label={`${t.profiles.delete}: ${item.name}`}
          >
            {t.profiles.delete}
          </button>
        </Form>
      </div>
    </li>
  );
}

export default function Profiles({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, profiles } = loaderData;
  const t = alertMessages(locale);
  const mine = profiles.filter((item) => !item.groupName);
  const groups = profiles.filter((item) => item.groupName);
  const done = actionData?.done ?? (loaderData.done === "saved" ? t.profiles.saved : undefined);
  return (
    <>
      <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
        <h1 className="h3 me-auto mb-0">{t.profiles.title}</h1>
        <Link to="/app/profiles/new" className="btn btn-primary">
          {t.profiles.create}
        </Link>
      </div>
      <p className="text-body-secondary">{t.profiles.lead}</p>
      <FormAlert kind="success">{done}</FormAlert>
      <section aria-labelledby="mine-title" className="mb-4">
        <h2 id="mine-title" className="h5">
          {t.profiles.mine}
        </h2>
        {mine.length === 0 ? <p className="text-body-secondary">{t.profiles.empty}</p> : null}
        <ul className="list-group">
          {mine.map((item) => (
            <ProfileCard key={item.id} item={item} locale={locale} />
          ))}
        </ul>
      </section>
      {groups.length > 0 ? (
        <section aria-labelledby="groups-title" className="mb-4">
          <h2 id="groups-title" className="h5">
            {t.profiles.groups}
          </h2>
          <ul className="list-group">
            {groups.map((item) => (
              <ProfileCard key={item.id} item={item} locale={locale} />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
