import { data, Form, redirect, useNavigation } from "react-router";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, requestMeta, withCookies } from "../../.server/auth/guard";
import { isRole } from "../../.server/auth/permissions";
import { requestContext, servicesContext } from "../../.server/context";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages, fill } from "../../components/app/messages";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { isLocale } from "../../i18n/locales";
import { acceptInvitationSchema, parseForm } from "../../lib/app-auth-schema";
import type { Route } from "./+types/invite";

export const handle = { layout: "bare" };

export async function loader({ params, context }: Route.LoaderArgs) {
  const found = await context.get(servicesContext).auth.findInvitation(params.token);
  // The invitation's language wins over the browser's: the admin chose it for this person.
  const locale = found && isLocale(found.locale) ? found.locale : appLocale(context);
  const invitation = found
    ? { email: found.email, organizationName: found.organizationName, role: isRole(found.role) ? found.role : "member" }
    : null;
  return data({ locale, invitation }, { status: found ? 200 : 404 });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { auth } = context.get(servicesContext);
  const found = await auth.findInvitation(params.token);
  const locale = found && isLocale(found.locale) ? found.locale : appLocale(context);
  const parsed = parseForm(acceptInvitationSchema(locale), await request.formData());
  if (!parsed.ok) return invalidForm(parsed.errors);
  try {
    const cookies = await auth.acceptInvitation(params.token, parsed.data, requestMeta(request, context));
    return redirect("/app/mfa", { headers: withCookies(cookies) });
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
}

export default function Invite({ loaderData, actionData }: Route.ComponentProps) {
  const { invitation } = loaderData;
  const t = appMessages(loaderData.locale);
  const busy = useNavigation().state === "submitting";
  const { errors, onSubmit } = useSchemaValidation(acceptInvitationSchema(loaderData.locale), actionData?.errors);
  return (
    <div className="row justify-content-center" lang={loaderData.locale}>
      <div className="col-md-8 col-lg-6">
        <h1 className="h3 mb-3">{t.invite.title}</h1>
        {invitation ? (
          <>
            <p className="text-body-secondary">
              {fill(t.invite.lead, { organization: invitation.organizationName, role: t.roles[invitation.role] })}
            </p>
            <FormAlert kind="danger">{actionData?.formError ? t.errors[actionData.formError] : undefined}</FormAlert>
            <Form method="post" noValidate onSubmit={onSubmit}>
              <FormField name="email" type="email" label={t.invite.email} value={invitation.email} readOnly disabled />
              <FormField name="name" autoComplete="name" required label={t.invite.name} errors={errors?.name} />
              <FormField
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={12}
                required
                label={t.invite.password}
                errors={errors?.password}
              />
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {t.invite.submit}
              </button>
            </Form>
          </>
        ) : (
          <FormAlert kind="danger">{t.invite.invalid}</FormAlert>
        )}
      </div>
    </div>
  );
}
