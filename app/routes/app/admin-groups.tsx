import { Form } from "react-router";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { requestContext, servicesContext } from "../../.server/context";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { groupNameSchema, parseForm } from "../../lib/app-auth-schema";
import type { Route } from "./+types/admin-groups";

export const handle = { layout: "bare" };

export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "groups.manage");
  const { auth } = context.get(servicesContext);
  const [groups, members] = await Promise.all([
    auth.listGroups(member.organizationId),
    auth.listMembers(member.organizationId),
  ]);
  return {
    locale: appLocale(context),
    groups: groups.map((group) => ({
      id: group.id,
      name: group.name,
      members: group.members.map((row) => ({
        userId: row.userId,
        name: row.name,
        email: row.email,
        memberId: members.find((m) => m.userId === row.userId)?.memberId ?? "",
      })),
    })),
    members: members.map((row) => ({ memberId: row.memberId, userId: row.userId, name: row.name, email: row.email })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireMember(context, "groups.manage");
  const locale = appLocale(context);
  const t = appMessages(locale);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const { auth } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  try {
    if (intent === "create" || intent === "rename") {
      const parsed = parseForm(groupNameSchema(locale), form);
      if (!parsed.ok) return invalidForm(parsed.errors);
      if (intent === "create") await auth.createGroup(actor, parsed.data.name, meta);
      else if (!(await auth.renameGroup(actor, id, parsed.data.name, meta)))
        return invalidForm({ id: [t.errors.not_found] });
      return { done: t.groups.saved };
    }
    if (intent === "delete") {
      if (!(await auth.deleteGroup(actor, id, meta))) return invalidForm({ id: [t.errors.not_found] });
      return { done: t.groups.saved };
    }
    if (intent === "add" || intent === "remove") {
      const memberId = String(form.get("memberId") ?? "");
      if (!(await auth.setGroupMember(actor, id, memberId, intent === "add", meta))) {
        return invalidForm({ id: [t.errors.not_found] });
      }
      return { done: t.groups.saved };
    }
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
  return invalidForm({ intent: ["unknown"] });
}

export default function AdminGroups({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, groups, members } = loaderData;
  const t = appMessages(locale);
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const failure = actionData && !("done" in actionData) ? actionData : undefined;
  const create = useSchemaValidation(groupNameSchema(locale), failure?.errors);
  return (
    <>
      <h1 className="h3">{t.groups.title}</h1>
      <p className="text-body-secondary">{t.groups.lead}</p>
      <FormAlert kind="success">{done}</FormAlert>
      <FormAlert kind="danger">
        {failure?.formError ? t.errors[failure.formError] : failure?.errors?.id?.join(" ")}
      </FormAlert>
      <Form method="post" noValidate className="row g-2 align-items-end mb-4" onSubmit={create.onSubmit}>
        <input type="hidden" name="intent" value="create" />
        <div className="col-sm-8 col-lg-5">
          <FormField name="name" id="new-group-name" required label={t.groups.name} errors={create.errors?.name} />
        </div>
        <div className="col-auto mb-3">
          <button type="submit" className="btn btn-primary">
            {t.groups.create}
          </button>
        </div>
      </Form>
      {groups.length === 0 ? <p className="text-body-secondary">{t.groups.none}</p> : null}
      <div className="row g-3">
        {groups.map((group) => (
          <section key={group.id} className="col-lg-6" aria-label={group.name} data-testid="group-card">
            <div className="card h-100">
              <div className="card-body">
                <Form method="post" className="d-flex gap-2 mb-3">
                  <input type="hidden" name="intent" value="rename" />
                  <input type="hidden" name="id" value={group.id} />
                  <label className="visually-hidden" htmlFor={`rename-${group.id}`}>
                    {t.groups.name}
                  </label>
                  <input
                    id={`rename-${group.id}`}
                    name="name"
                    defaultValue={group.name}
                    className="form-control form-control-sm"
                    required
                  />
                  <button type="submit" className="btn btn-sm btn-outline-primary">
                    {t.groups.rename}
                  </button>
                </Form>
                <h2 className="h6">{t.groups.members}</h2>
                {group.members.length === 0 ? <p className="small text-body-secondary">{t.groups.empty}</p> : null}
                <ul className="list-unstyled">
                  {group.members.map((row) => (
                    <li key={row.userId} className="d-flex align-items-center gap-2 mb-1">
                      <span className="me-auto">{row.name}</span>
                      <Form method="post">
                        <input type="hidden" name="intent" value="remove" />
                        <input type="hidden" name="id" value={group.id} />
                        <input type="hidden" name="memberId" value={row.memberId} />
                        <button type="submit" className="btn btn-sm btn-link text-danger">
                          {t.groups.remove}
                        </button>
                      </Form>
                    </li>
                  ))}
                </ul>
                <Form method="post" className="d-flex gap-2 mb-3">
                  <input type="hidden" name="intent" value="add" />
                  <input type="hidden" name="id" value={group.id} />
                  <label className="visually-hidden" htmlFor={`add-${group.id}`}>
                    {t.groups.member}
                  </label>
                  <select id={`add-${group.id}`} name="memberId" className="form-select form-select-sm">
                    {members
                      .filter((row) => !group.members.some((m) => m.userId === row.userId))
                      .map((row) => (
                        <option key={row.memberId} value={row.memberId}>
                          {row.name} ({row.email})
                        </option>
                      ))}
                  </select>
                  <button type="submit" className="btn btn-sm btn-outline-secondary">
                    {t.groups.add}
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={group.id} />
                  <button type="submit" className="btn btn-sm btn-outline-danger">
                    {t.groups.delete}
                  </button>
                </Form>
              </div>
            </div>
          </section>
        ))}
      </div>
    </>
  );
}
