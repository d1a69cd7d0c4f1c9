import { data, Form, useNavigation } from "react-router";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, safeNext, withCookies } from "../../.server/auth/guard";
import { AuthError } from "../../.server/auth/service";
import { requestContext, servicesContext } from "../../.server/context";
import { localeFromAcceptLanguage, localeFromCookie } from "../../.server/locale";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import { SsoRedirect } from "../../components/app/sso-redirect";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { parseForm, resetRequestSchema } from "../../lib/app-auth-schema";
import type { Route } from "./+types/sso";

export const handle = { layout: "bare" };

/** Sign-in by email domain: the organisation's identity provider, if its domain is claimed and proved. */
export function loader({ request, context }: Route.LoaderArgs) {
  const error = new URL(request.url).searchParams.get("error");
  const shown = ssoErrors.find((code) => code === error) ?? null;
  return { locale: appLocale(context), error: shown };
}

/** The refusals the callback sends back here (anything else is not shown). */
const ssoErrors = ["sso_refused", "sso_unavailable", "sso_required", "sso_no_provider"] as const;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const parsed = parseForm(resetRequestSchema(appLocale(context)), form);
  if (!parsed.ok) return invalidForm(parsed.errors);
  const { auth } = context.get(servicesContext);
  try {
    const provider = await auth.ssoProviderForEmail(parsed.data.email);
    if (!provider) throw new AuthError("sso_no_provider");
    const next = safeNext(new URL(request.url).searchParams.get("next"));
    // The browser's language, if it says one (not the default): a member made at this sign-in gets it.
    const locale =
      localeFromCookie(request.headers.get("cookie")) ??
      localeFromAcceptLanguage(request.headers.get("accept-language"));
    const { url, setCookies } = await auth.beginSso(provider.id, { next, locale });
    // The page sends the browser on (SsoRedirect): a 302 out of a form post breaks form-action 'self'.
    return data({ go: url, provider: provider.name }, { headers: withCookies(setCookies) });
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
}

export default function Sso({ loaderData, actionData }: Route.ComponentProps) {
  const t = appMessages(loaderData.locale);
  const busy = useNavigation().state === "submitting";
  const { errors, onSubmit } = useSchemaValidation(
    resetRequestSchema(loaderData.locale),
    actionData && "errors" in actionData ? actionData.errors : undefined,
  );
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-5">
        <h1 className="h3 mb-3">{t.sso.title}</h1>
        <p className="text-body-secondary">{t.sso.lead}</p>
        {actionData && "go" in actionData ? (
          <SsoRedirect
            url={actionData.go}
            label={t.sso.continueTo.replace("{provider}", actionData.provider)}
            status={t.sso.redirecting.replace("{provider}", actionData.provider)}
          />
        ) : null}
        <FormAlert kind="danger">
          {actionData && "formError" in actionData && actionData.formError
            ? t.errors[actionData.formError]
            : loaderData.error
              ? t.errors[loaderData.error]
              : undefined}
        </FormAlert>
        <Form method="post" noValidate onSubmit={onSubmit} reloadDocument>
          <FormField
            name="email"
            type="email"
            autoComplete="username"
            required
            label={t.sso.email}
            errors={errors?.email}
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t.sso.submit}
          </button>
        </Form>
        <p className="mt-3 small">
          <a href="/app/login">{t.login.title}</a>
        </p>
      </div>
    </div>
  );
}
