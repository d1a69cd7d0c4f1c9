import { Form, redirect, useNavigation } from "react-router";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, requestMeta } from "../../.server/auth/guard";
import { requestContext, servicesContext } from "../../.server/context";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { parseForm, resetPasswordSchema } from "../../lib/app-auth-schema";
import type { Route } from "./+types/reset-token";

export const handle = { layout: "bare" };

export function loader({ context }: Route.LoaderArgs) {
  return { locale: appLocale(context) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const parsed = parseForm(resetPasswordSchema(appLocale(context)), await request.formData());
  if (!parsed.ok) return invalidForm(parsed.errors);
  try {
    await context
      .get(servicesContext)
      .auth.resetPassword(params.token, parsed.data.password, requestMeta(request, context));
    return redirect("/app/login?reset=1");
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
}

export default function ResetToken({ loaderData, actionData }: Route.ComponentProps) {
  const t = appMessages(loaderData.locale);
  const busy = useNavigation().state === "submitting";
  const { errors, onSubmit } = useSchemaValidation(resetPasswordSchema(loaderData.locale), actionData?.errors);
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-5">
        <h1 className="h3 mb-3">{t.reset.newTitle}</h1>
        <FormAlert kind="danger">{actionData?.formError ? t.errors[actionData.formError] : undefined}</FormAlert>
        <Form method="post" noValidate onSubmit={onSubmit}>
          <FormField
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={12}
            required
            label={t.reset.password}
            errors={errors?.password}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t.reset.save}
          </button>
        </Form>
      </div>
    </div>
  );
}
