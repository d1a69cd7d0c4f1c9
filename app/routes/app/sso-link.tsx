import { Form, redirect } from "react-router";
import { appLocale, appSessionContext, requestMeta } from "../../.server/auth/guard";
import { servicesContext } from "../../.server/context";
import { FormAlert } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import type { Route } from "./+types/sso-link";

/** An IdP identity with an existing account's email: its owner, signed in with their own factors, confirms. */
export function loader({ params, context }: Route.LoaderArgs) {
  const current = context.get(appSessionContext);
  if (!current?.mfaVerified) {
    throw redirect(`/app/login?next=${encodeURIComponent(`/app/sso/link/${params.token}`)}`);
  }
  return { locale: appLocale(context) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const current = context.get(appSessionContext);
  if (!current?.mfaVerified) throw redirect("/app/login");
  const linked = await context
    .get(servicesContext)
    .auth.confirmSsoLink(current, params.token, requestMeta(request, context));
  return { linked };
}

export default function SsoLink({ loaderData, actionData }: Route.ComponentProps) {
  const t = appMessages(loaderData.locale);
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-6">
        <h1 className="h3 mb-3">{t.sso.linkTitle}</h1>
        {actionData ? (
          <FormAlert kind={actionData.linked ? "success" : "danger"}>
            {actionData.linked ? t.sso.linked : t.errors.invalid_token}
          </FormAlert>
        ) : (
          <>
            <p>{t.sso.linkLead}</p>
            <Form method="post">
              <button type="submit" className="btn btn-primary">
                {t.sso.linkConfirm}
              </button>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}
