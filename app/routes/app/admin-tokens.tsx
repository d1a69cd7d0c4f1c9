import { Form } from "react-router";
import { createApiToken, listApiTokens, revokeApiToken } from "../../.server/api/tokens";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { requestContext, servicesContext } from "../../.server/context";
import { CardTable } from "../../components/app/card-table";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages, formatDateTime } from "../../components/app/messages";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { apiTokenFormSchema, tokenExpiry } from "../../lib/api-token-schema";
import { parseForm } from "../../lib/app-auth-schema";
import type { Route } from "./+types/admin-tokens";

export const handle = { layout: "bare" };

export async function loader({ context }: Route.LoaderArgs) {
  const member = requireMember(context, "tokens.manage");
  const tokens = await listApiTokens(context.get(servicesContext).api.database.db, member.organizationId);
  return {
    locale: appLocale(context),
    tokens: tokens.map((row) => ({
      id: row.id,
      name: row.name,
      scope: row.scope,
      prefix: row.prefix,
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      revokedAt: row.revokedAt?.toISOString() ?? null,
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireMember(context, "tokens.manage");
  const locale = appLocale(context);
  const db = context.get(servicesContext).api.database.db;
  const meta = requestMeta(request, context);
  const audit = { actor: { id: actor.userId, email: actor.email }, ip: meta.ip, userAgent: meta.userAgent };
  const form = await request.formData();
  try {
    if (form.get("intent") === "revoke") {
      const ok = await revokeApiToken(db, actor.organizationId, String(form.get("id") ?? ""), audit);
      return ok ? { revoked: true } : invalidForm({ id: [appMessages(locale).errors.not_found] });
    }
    const parsed = parseForm(apiTokenFormSchema(locale), form);
    if (!parsed.ok) return invalidForm(parsed.errors);
    const created = await createApiToken(db, {
      organizationId: actor.organizationId,
      name: parsed.data.name,
      scope: parsed.data.scope,
      expiresAt: tokenExpiry(parsed.data.expiresAt),
      createdBy: actor.userId,
      audit,
    });
    return { token: created.token };
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
}

export default function AdminTokens({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, tokens } = loaderData;
  const t = appMessages(locale);
  const created = actionData && "token" in actionData ? actionData.token : undefined;
  const failure = actionData && "errors" in actionData ? actionData : undefined;
  const create = useSchemaValidation(apiTokenFormSchema(locale), failure?.errors);
  const now = Date.now();
  return (
    <>
      <h1 className="h3">{t.tokens.title}</h1>
      <p className="text-body-secondary">{t.tokens.lead}</p>
      {created ? (
        <div className="alert alert-success" role="status">
          <p className="mb-1">{t.tokens.created}</p>
          <code className="d-block text-break user-select-all" data-testid="new-token">
            {created}
          </code>
        </div>
      ) : null}
      <FormAlert kind="danger">{failure?.formError ? t.errors[failure.formError] : undefined}</FormAlert>
      <Form method="post" noValidate className="row g-2 align-items-end mb-4" onSubmit={create.onSubmit}>
        <input type="hidden" name="intent" value="create" />
        <div className="col-md-4">
          <FormField
            name="name"
            id="token-name"
            required
            maxLength={100}
            label={t.tokens.name}
            errors={create.errors?.name}
          />
        </div>
        <div className="col-md-3 mb-3">
          <label htmlFor="token-scope" className="form-label">
            {t.tokens.scope}
          </label>
          <select id="token-scope" name="scope" className="form-select" defaultValue="read">
            <option value="read">{t.tokens.scopes.read}</option>
            <option value="admin">{t.tokens.scopes.admin}</option>
          </select>
        </div>
        <div className="col-md-3">
          <FormField
            name="expiresAt"
            id="token-expiry"
            type="date"
            label={t.tokens.expiresAt}
            errors={create.errors?.expiresAt}
          />
        </div>
        <div className="col-md-2 mb-3">
          <button type="submit" className="btn btn-primary w-100">
            {t.tokens.create}
          </button>
        </div>
      </Form>
      {tokens.length === 0 ? <p className="text-body-secondary">{t.tokens.none}</p> : null}
      <div className="table-responsive">
        <CardTable
          labels={[
            t.tokens.name,
            t.tokens.scope,
            t.tokens.prefix,
            t.tokens.createdAt,
            t.tokens.lastUsed,
            t.tokens.status,
            "",
          ]}
          className="table align-middle"
        >
          <thead>
            <tr>
              <th scope="col">{t.tokens.name}</th>
              <th scope="col">{t.tokens.scope}</th>
              <th scope="col">{t.tokens.prefix}</th>
              <th scope="col">{t.tokens.createdAt}</th>
              <th scope="col">{t.tokens.lastUsed}</th>
              <th scope="col">{t.tokens.status}</th>
              <th scope="col">
                <span className="visually-hidden">{t.members.actions}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((row) => {
              const expired = row.expiresAt !== null && new Date(row.expiresAt).getTime() < now;
              return (
                <tr key={row.id} data-testid="token-row">
                  <td>{row.name}</td>
                  <td>{row.scope === "admin" ? t.tokens.scopes.admin : t.tokens.scopes.read}</td>
                  <td>
                    <code>{row.prefix}…</code>
                  </td>
                  <td className="small">{formatDateTime(row.createdAt, locale)}</td>
                  <td className="small">{row.lastUsedAt ? formatDateTime(row.lastUsedAt, locale) : t.tokens.never}</td>
                  <td>{row.revokedAt ? t.tokens.revoked : expired ? t.tokens.expired : t.tokens.active}</td>
                  <td className="text-end">
                    {row.revokedAt ? null : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="id" value={row.id} />
                        <button type="submit" className="btn btn-sm btn-outline-danger">
                          {t.tokens.revoke}
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </CardTable>
      </div>
    </>
  );
}
