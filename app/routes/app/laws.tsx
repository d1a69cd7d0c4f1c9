import { data, Form, Link } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { followFromForm, followsOf, unfollowFromForm } from "../../.server/laws/follow-page";
import { startEuSync } from "../../.server/sources/eu-consolidated/run";
import { CardTable } from "../../components/app/card-table";
import { FollowMessage, type FollowResult, followFailureMessage } from "../../components/app/laws/follow-form";
import { formatLawDate, lawsMessages } from "../../components/app/laws/messages";
import { fill } from "../../components/app/messages";
import { plural } from "../../lib/plural";
import type { Route } from "./+types/laws";

export const handle = { layout: "bare" };

export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const database = context.get(servicesContext).api.database;
  const locale = appLocale(context);
  return { locale, follows: await followsOf(database, member, undefined, locale) };
}

/** Follow a law by BOE id, ELI or CELEX (whole law, for me), or stop following one. */
export async function action({ request, context }: Route.ActionArgs) {
  const member = requireMember(context, "alerts.use");
  const services = context.get(servicesContext);
  const database = services.api.database;
  const meta = requestMeta(request, context);
  const form = await request.formData();
  const result: FollowResult =
    form.get("intent") === "unfollow"
      ? await unfollowFromForm(database, member, meta, String(form.get("id") ?? ""))
      : {
          ...(await followFromForm(database, member, meta, form, undefined, services.api.maxFollowsPerOrganization)),
          limit: services.api.maxFollowsPerOrganization,
        };
  const lawId = (result as { lawId?: string }).lawId;
  if (result.ok && !result.unfollowed && lawId && !/^BOE-/.test(lawId) && services.config) {
    startEuSync(services.config, database, services.log, lawId);
  }
  return data({ ...result, typed: String(form.get("law") ?? "") }, { status: result.ok ? 200 : 422 });
}

export default function Laws({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, follows } = loaderData;
  const t = lawsMessages(locale);
  const l = t.list;
  const failed = actionData && !actionData.ok && !actionData.unfollowed;
  return (
    <>
      <h1 className="h3">{l.title}</h1>
      <p className="text-body-secondary">{l.lead}</p>
      <p>
        <Link to="/app/laws/catalogue" className="fw-semibold">
          {t.catalogue.findLink}
        </Link>
      </p>
      {failed ? null : <FollowMessage t={t} result={actionData} />}
      <Form method="post" className="card card-body mb-4" aria-labelledby="follow-law-heading" noValidate>
        <h2 id="follow-law-heading" className="h5">
          {l.followHeading}
        </h2>
        <input type="hidden" name="intent" value="follow" />
        <label htmlFor="follow-law" className="form-label">
          {l.idLabel}
        </label>
        <div className="d-flex flex-wrap gap-2">
          <input
            id="follow-law"
            name="law"
            className={`form-control flex-grow-1 w-auto${failed ? " is-invalid" : ""}`}
            required
            defaultValue={failed ? actionData.typed : ""}
            aria-describedby={failed ? "follow-law-error follow-law-hint" : "follow-law-hint"}
            aria-invalid={failed ? true : undefined}
          />
          <button type="submit" className="btn btn-primary">
            {l.submit}
          </button>
        </div>
        {failed ? (
          <div id="follow-law-error" className="invalid-feedback d-block" role="alert">
            {followFailureMessage(t, actionData) ?? l.idHint}
          </div>
        ) : null}
        <div id="follow-law-hint" className="form-text">
          {l.idHint}
        </div>
      </Form>
      {follows.length === 0 ? (
        <p className="text-body-secondary">{l.empty}</p>
      ) : (
        <div className="table-responsive">
          <CardTable
            className="table align-middle"
            labels={[l.columns.law, l.columns.scope, l.columns.who, l.columns.updated, ""]}
          >
            <thead>
              <tr>
                <th scope="col">{l.columns.law}</th>
                <th scope="col">{l.columns.scope}</th>
                <th scope="col">{l.columns.who}</th>
                <th scope="col">{l.columns.updated}</th>
                <th scope="col">
                  <span className="visually-hidden">{t.page.follow.unfollow}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {follows.map((f) => (
                <tr key={f.id}>
                  <td>
                    <Link to={`/app/laws/${encodeURIComponent(f.lawId)}`}>{f.lawTitle}</Link>
                    <div className="small text-body-secondary">{f.lawId}</div>
                  </td>
                  <td>{f.blockIds.length === 0 ? l.wholeLaw : plural(locale, l.blocks, f.blockIds.length)}</td>
                  <td>{f.groupName ? fill(l.group, { name: f.groupName }) : l.me}</td>
                  <td>{f.updatedAt ? formatLawDate(f.updatedAt, locale) : l.notYet}</td>
                  <td>
                    <Form method="post">
                      <input type="hidden" name="intent" value="unfollow" />
                      <input type="hidden" name="id" value={f.id} />
                      <button
                        type="submit"
                        className="btn btn-sm btn-outline-secondary"
                        aria-label={`${t.page.follow.unfollow}: ${f.lawTitle}`}
                      >
                        {t.page.follow.unfollow}
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </CardTable>
        </div>
      )}
    </>
  );
}
