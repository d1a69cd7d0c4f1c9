import { data, Form, redirect, useNavigation } from "react-router";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, requestMeta, withCookies } from "../../.server/auth/guard";
import type { RequestMeta } from "../../.server/auth/service";
import { type AppServices, requestContext, servicesContext } from "../../.server/context";
import { requestSampleLoad, setupOwner } from "../../.server/sources/sample";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { parseForm, setupSchema } from "../../lib/app-auth-schema";
import type { Route } from "./+types/setup";

export const handle = { layout: "bare" };

export async function loader({ params, context }: Route.LoaderArgs) {
  const valid = await context.get(servicesContext).auth.setupTokenValid(params.token);
  const locale = appLocale(context);
  return data({ locale, valid }, { status: valid ? 200 : 404 });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = appLocale(context);
  const form = await request.formData();
  const parsed = parseForm(setupSchema(locale), form);
  if (!parsed.ok) return invalidForm(parsed.errors);
  const services = context.get(servicesContext);
  const meta = requestMeta(request, context);
  try {
    const cookies = await services.auth.completeSetup(params.token, { ...parsed.data, locale }, meta);
    if (form.get("loadSample") === "on") await startSample(services, parsed.data.email, meta, locale);
    return redirect("/app/mfa", { headers: withCookies(cookies) });
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
}

/** The setup's "load the sample" box: started in the background and audited; a failure here never undoes the setup. */
async function startSample(services: AppServices, email: string, meta: RequestMeta, locale: "es" | "en") {
  try {
    const owner = await setupOwner(services.api.database, email);
    if (!owner || !services.sample) throw new Error("no owner or no sample loader after setup");
    await requestSampleLoad(
      services.api.database,
      services.sample,
      { ...owner, ip: meta.ip, userAgent: meta.userAgent },
      "setup",
      locale,
    );
  } catch (error) {
    services.log.error({ err: error }, "sample data not started after setup");
  }
}

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const t = appMessages(loaderData.locale);
  const busy = useNavigation().state === "submitting";
  const { errors, onSubmit } = useSchemaValidation(setupSchema(loaderData.locale), actionData?.errors);
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-6">
        <h1 className="h3 mb-3">{t.setup.title}</h1>
        {loaderData.valid ? (
          <>
            <p className="text-body-secondary">{t.setup.lead}</p>
            <FormAlert kind="danger">{actionData?.formError ? t.errors[actionData.formError] : undefined}</FormAlert>
            <Form method="post" noValidate onSubmit={onSubmit}>
              <FormField
                name="organizationName"
                required
                label={t.setup.organization}
                errors={errors?.organizationName}
              />
              <FormField name="name" autoComplete="name" required label={t.setup.name} errors={errors?.name} />
              <FormField
                name="email"
                type="email"
                autoComplete="username"
                required
                label={t.setup.email}
                errors={errors?.email}
              />
              <FormField
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={12}
                required
                label={t.setup.password}
                errors={errors?.password}
              />
              <div className="form-check mb-3">
                <input
                  className="form-check-input"
                  type="checkbox"
                  name="loadSample"
                  id="loadSample"
                  aria-describedby="loadSample-hint"
                />
                <label className="form-check-label" htmlFor="loadSample">
                  {t.setup.sample}
                </label>
                <div id="loadSample-hint" className="form-text">
                  {t.setup.sampleHint}
                </div>
              </div>
              <button type="submit" className="btn btn-primary" disabled={busy}>
                {t.setup.submit}
              </button>
            </Form>
          </>
        ) : (
          <FormAlert kind="danger">{t.setup.invalid}</FormAlert>
        )}
      </div>
    </div>
  );
}
