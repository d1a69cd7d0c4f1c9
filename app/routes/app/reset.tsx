import { Form, useNavigation } from "react-router";
import { authFailure, invalidForm, limitedFormHeaders } from "../../.server/auth/form-errors";
import { appLocale, requestMeta } from "../../.server/auth/guard";
import { requestContext, servicesContext } from "../../.server/context";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { parseForm, resetRequestSchema } from "../../lib/app-auth-schema";
import type { Route } from "./+types/reset";

export const handle = { layout: "bare" };

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return limitedFormHeaders(actionHeaders);
}

export function loader({ context }: Route.LoaderArgs) {
  return { locale: appLocale(context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const parsed = parseForm(resetRequestSchema(appLocale(context)), await request.formData());
  if (!parsed.ok) return invalidForm(parsed.errors);
  try {
    await context.get(servicesContext).auth.requestPasswordReset(parsed.data.email, requestMeta(request, context));
    // The same answer whether or not the account exists.
    return { sent: true };
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
}

export default function Reset({ loaderData, actionData }: Route.ComponentProps) {
  const t = appMessages(loaderData.locale);
  const busy = useNavigation().state === "submitting";
  const sent = actionData && "sent" in actionData;
  const failure = actionData && !("sent" in actionData) ? actionData : undefined;
  const { errors, onSubmit } = useSchemaValidation(resetRequestSchema(loaderData.locale), failure?.errors);
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-5">
        <h1 className="h3 mb-3">{t.reset.title}</h1>
        {sent ? (
          <FormAlert kind="success">{t.reset.sent}</FormAlert>
        ) : (
          <>
            <p className="text-body-secondary">{t.reset.lead}</p>
            <FormAlert kind="danger">{failure?.formError ? t.errors[failure.formError] : undefined}</FormAlert>
            <Form method="post" noValidate onSubmit={onSubmit}>
              <FormField
                name="email"
                type="email"
                autoComplete="username"
                required
                label={t.reset.email}
                errors={errors?.email}
              />
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {t.reset.submit}
              </button>
            </Form>
          </>
        )}
      </div>
    </div>
  );
}
