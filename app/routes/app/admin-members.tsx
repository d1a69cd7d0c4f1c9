import { Form } from "react-router";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { grantableRoles, isRole } from "../../.server/auth/permissions";
import { requestContext, servicesContext } from "../../.server/context";
import { CardTable } from "../../components/app/card-table";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages, fill, formatDateTime } from "../../components/app/messages";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { inviteSchema, parseForm, roleSchema } from "../../lib/app-auth-schema";
import type { Route } from "./+types/admin-members";

export const handle = { layout: "bare" };

export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "members.view");
  const { auth } = context.get(servicesContext);
  const [members, invitations, groups] = await Promise.all([
    auth.listMembers(member.organizationId),
    auth.listInvitations(member.organizationId),
    auth.listGroups(member.organizationId),
  ]);
  return {
    locale: appLocale(context),
    me: member.memberId,
    grantable: grantableRoles(member),
    members: members.map((row) => ({
      ...row,
      role: isRole(row.role) ? row.role : "member",
      banned: row.banned === true,
    })),
    invitations: invitations.map((row) => ({
      ...row,
      role: isRole(row.role) ? row.role : ("member" as const),
      expiresAt: row.expiresAt.toISOString(),
    })),
    groups: groups.map((group) => ({ id: group.id, name: group.name })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const locale = appLocale(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const { auth } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  try {
    if (intent === "invite") {
      const actor = requireMember(context, "members.invite");
      const parsed = parseForm(inviteSchema(locale), form, ["groups"]);
      if (!parsed.ok) return invalidForm(parsed.errors);
      if (!grantableRoles(actor).includes(parsed.data.role))
        return invalidForm({ role: [appMessages(locale).errors.forbidden] });
      await auth.invite(actor, { ...parsed.data, groupIds: parsed.data.groups ?? [] }, meta);
      return { done: fill(appMessages(locale).members.invited, { email: parsed.data.email }) };
    }
    const id = String(form.get("id") ?? "");
    const done = { done: appMessages(locale).members.saved };
    if (intent === "revoke" || intent === "resend") {
      const actor = requireMember(context, "members.invite");
      const ok =
        intent === "revoke"
          ? await auth.revokeInvitation(actor, id, meta)
          : await auth.resendInvitation(actor, id, meta);
      return ok ? done : invalidForm({ id: ["not_found"] });
    }
    const actor = requireMember(context, "members.view");
    const target = await auth.memberById(actor.organizationId, id);
    if (!target) return invalidForm({ id: ["not_found"] });
    const object = { organizationId: actor.organizationId, role: isRole(target.role) ? target.role : "member" };
    if (intent === "role") {
      requireMember(context, "members.change_role", object);
      const parsed = parseForm(roleSchema(locale), form);
      if (!parsed.ok || !grantableRoles(actor).includes(parsed.data.role)) {
        return invalidForm({ role: [appMessages(locale).errors.role] });
      }
      await auth.changeRole(actor, id, parsed.data.role, meta);
      return done;
    }
    if (intent === "suspend" || intent === "reinstate") {
      requireMember(context, "members.suspend", object);
      await auth.setSuspended(actor, id, intent === "suspend", meta);
      return done;
    }
    if (intent === "end-sessions") {
      requireMember(context, "members.end_sessions", object);
      await auth.endMemberSessions(actor, id, meta);
      return done;
    }
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
  return invalidForm({ intent: ["unknown"] });
}

export default function AdminMembers({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, members, invitations, groups, grantable, me } = loaderData;
  const t = appMessages(locale);
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const failure = actionData && !("done" in actionData) ? actionData : undefined;
  const invite = useSchemaValidation(inviteSchema(locale), failure?.errors, ["groups"]);
  return (
    <>
      <h1 className="h3 mb-4">{t.members.title}</h1>
      <FormAlert kind="success">{done}</FormAlert>
      <FormAlert kind="danger">{failure?.formError ? t.errors[failure.formError] : undefined}</FormAlert>
      <div className="table-responsive mb-5">
        <CardTable
          labels={[t.members.name, t.members.email, t.members.role, t.members.status, t.members.actions]}
          className="table align-middle"
        >
          <thead>
            <tr>
              <th scope="col">{t.members.name}</th>
              <th scope="col">{t.members.email}</th>
              <th scope="col">{t.members.role}</th>
              <th scope="col">{t.members.status}</th>
              <th scope="col">{t.members.actions}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((row) => (
              <tr key={row.memberId} data-testid="member-row">
                <td>{row.name}</td>
                <td className="text-break">{row.email}</td>
                <td>
                  {row.memberId !== me && grantable.includes(row.role) ? (
                    <Form method="post" className="d-flex gap-1">
                      <input type="hidden" name="intent" value="role" />
                      <input type="hidden" name="id" value={row.memberId} />
                      <label className="visually-hidden" htmlFor={`role-${row.memberId}`}>
                        {t.members.changeRole}
                      </label>
                      <select
                        id={`role-${row.memberId}`}
                        name="role"
                        defaultValue={row.role}
                        className="form-select form-select-sm"
                      >
                        {grantable.map((role) => (
                          <option key={role} value={role}>
                            {t.roles[role]}
                          </option>
                        ))}
                      </select>
                      <button type="submit" className="btn btn-sm btn-outline-primary">
                        {t.members.changeRole}
                      </button>
                    </Form>
                  ) : (
                    t.roles[row.role]
                  )}
                </td>
                <td>{row.banned ? t.members.suspended : t.members.active}</td>
                <td>
                  {row.memberId !== me && grantable.includes(row.role) ? (
                    <div className="d-flex flex-wrap gap-1">
                      <Form method="post">
                        <input type="hidden" name="intent" value={row.banned ? "reinstate" : "suspend"} />
                        <input type="hidden" name="id" value={row.memberId} />
                        <button type="submit" className="btn btn-sm btn-outline-warning">
                          {row.banned ? t.members.reinstate : t.members.suspend}
                        </button>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="intent" value="end-sessions" />
                        <input type="hidden" name="id" value={row.memberId} />
                        <button type="submit" className="btn btn-sm btn-outline-danger">
                          {t.members.endSessions}
                        </button>
                      </Form>
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </CardTable>
      </div>
      <div className="row g-4">
        <section className="col-lg-5" aria-labelledby="invite-title">
          <h2 id="invite-title" className="h5">
            {t.members.invite}
          </h2>
          <Form method="post" noValidate onSubmit={invite.onSubmit}>
            <input type="hidden" name="intent" value="invite" />
            <FormField name="email" type="email" required label={t.members.inviteEmail} errors={invite.errors?.email} />
            <div className="mb-3">
              <label htmlFor="invite-role" className="form-label">
                {t.members.inviteRole}
              </label>
              <select id="invite-role" name="role" defaultValue="member" className="form-select">
                {grantable.map((role) => (
                  <option key={role} value={role}>
                    {t.roles[role]}
                  </option>
                ))}
              </select>
            </div>
            <div className="mb-3">
              <label htmlFor="invite-locale" className="form-label">
                {t.members.inviteLocale}
              </label>
              <select id="invite-locale" name="locale" defaultValue={locale} className="form-select">
                <option value="es">{t.locales.es}</option>
                <option value="en">{t.locales.en}</option>
              </select>
            </div>
            {groups.length > 0 ? (
              <fieldset className="mb-3">
                <legend className="form-label fs-6">{t.members.inviteGroups}</legend>
                {groups.map((group) => (
                  <div className="form-check" key={group.id}>
                    <input
                      className="form-check-input"
                      type="checkbox"
                      name="groups"
                      value={group.id}
                      id={`group-${group.id}`}
                    />
                    <label className="form-check-label" htmlFor={`group-${group.id}`}>
                      {group.name}
                    </label>
                  </div>
                ))}
              </fieldset>
            ) : null}
            <button type="submit" className="btn btn-primary">
              {t.members.inviteSubmit}
            </button>
          </Form>
        </section>
        <section className="col-lg-7" aria-labelledby="invitations-title">
          <h2 id="invitations-title" className="h5">
            {t.members.invitations}
          </h2>
          {invitations.length === 0 ? <p className="text-body-secondary">{t.members.none}</p> : null}
          <ul className="list-group">
            {invitations.map((row) => (
              <li
                key={row.id}
                className="list-group-item d-flex flex-wrap align-items-center gap-2"
                data-testid="invitation-row"
              >
                <span className="me-auto text-break">
                  {row.email} · {t.roles[row.role]} ·{" "}
                  {t.members.statuses[row.status as keyof typeof t.members.statuses] ?? row.status}
                  {/* Only a pending invitation can expire: an accepted or revoked one has no deadline left. */}
                  {row.status === "pending" ? (
                    <span className="d-block small text-body-secondary" data-testid="invitation-expires">
                      {t.members.expires}: {formatDateTime(row.expiresAt, locale)}
                    </span>
                  ) : null}
                </span>
                {row.status === "pending" ? (
                  <>
                    <Form method="post">
                      <input type="hidden" name="intent" value="resend" />
                      <input type="hidden" name="id" value={row.id} />
                      <button type="submit" className="btn btn-sm btn-outline-secondary">
                        {t.members.resend}
                      </button>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="intent" value="revoke" />
                      <input type="hidden" name="id" value={row.id} />
                      <button type="submit" className="btn btn-sm btn-outline-danger">
                        {t.members.revoke}
                      </button>
                    </Form>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </>
  );
}
