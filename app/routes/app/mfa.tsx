import { Form, redirect, useNavigation } from "react-router";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, appSessionContext, requestMeta, withCookies } from "../../.server/auth/guard";
import { requestContext, servicesContext } from "../../.server/context";
import { FormAlert, FormField, TotpCodeField } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import { RecoveryCodes } from "../../components/app/recovery-codes";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { parseForm, passwordOnlySchema, totpCodeSchema } from "../../lib/app-auth-schema";
import type { Route } from "./+types/mfa";

export const handle = { layout: "bare" };

/** TOTP enrolment: the only /app page reachable before a second factor is verified in the session. */
export async function loader({ context }: Route.LoaderArgs) {
  const current = context.get(appSessionContext);
  if (!current) throw redirect("/app/login");
  if (current.mfaVerified) throw redirect("/app");
  const enrolment = await context.get(servicesContext).auth.enrolment(current);
  // qrcode is loaded on the first enrolment, not at start (it is only ever needed here).
  const qr = enrolment
    ? await (await import("qrcode")).default.toDataURL(enrolment.totpURI, { margin: 1, width: 220 })
    : null;
  const { auth } = context.get(servicesContext);
  // After an IdP sign-in whose MFA is not trusted (issue 41): the member's own code, or enrolment without a password.
  return {
    locale: appLocale(context),
    enrolment,
    qr,
    verifyOnly: !enrolment && current.twoFactorEnabled,
    needsPassword: await auth.hasPassword(current.userId),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const locale = appLocale(context);
  const current = context.get(appSessionContext);
  if (!current) throw redirect("/app/login");
  const { auth } = context.get(servicesContext);
  const form = await request.formData();
  const meta = requestMeta(request, context);
  try {
    if (form.get("intent") === "session") {
      const parsed = parseForm(totpCodeSchema(locale), form);
      if (!parsed.ok) return invalidForm(parsed.errors);
      await auth.verifySessionTotp(current, parsed.data.code, meta);
      return redirect("/app");
    }
    if (form.get("intent") === "start" && !(await auth.hasPassword(current.userId))) {
      return redirect("/app/mfa", { headers: withCookies(await auth.startEnrolment(undefined, meta)) });
    }
    if (form.get("intent") === "start") {
      const parsed = parseForm(passwordOnlySchema(locale), form);
      if (!parsed.ok) return invalidForm(parsed.errors);
      return redirect("/app/mfa", { headers: withCookies(await auth.startEnrolment(parsed.data.password, meta)) });
    }
    const parsed = parseForm(totpCodeSchema(locale), form);
    if (!parsed.ok) return invalidForm(parsed.errors);
    return redirect("/app", { headers: withCookies(await auth.confirmEnrolment(current, parsed.data.code, meta)) });
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
}

export default function Mfa({ loaderData, actionData }: Route.ComponentProps) {
  const { enrolment, qr, verifyOnly, needsPassword } = loaderData;
  const t = appMessages(loaderData.locale);
  const busy = useNavigation().state === "submitting";
  const verify = useSchemaValidation(totpCodeSchema(loaderData.locale), actionData?.errors);
  const start = useSchemaValidation(passwordOnlySchema(loaderData.locale), actionData?.errors);
  return (
    <div className="row justify-content-center">
      <div className="col-lg-9">
        <h1 className="h3 mb-3">{t.mfa.title}</h1>
        <p className="text-body-secondary">{t.mfa.lead}</p>
        <FormAlert kind="danger">{actionData?.formError ? t.errors[actionData.formError] : undefined}</FormAlert>
        {enrolment && qr ? (
          <div className="row g-4">
            <div className="col-md-6">
              <img src={qr} alt={t.mfa.qrAlt} width={220} height={220} className="border rounded bg-white p-1 mb-3" />
              <label htmlFor="otpauth-uri" className="form-label d-block">
                {t.mfa.uri}
              </label>
              <code
                id="otpauth-uri"
                className="d-block text-break user-select-all small mb-3"
                data-testid="otpauth-uri"
              >
                {enrolment.totpURI}
              </code>
              <Form method="post" noValidate onSubmit={verify.onSubmit}>
                <input type="hidden" name="intent" value="verify" />
                <TotpCodeField label={t.mfa.code} errors={verify.errors?.code} />
                <button type="submit" className="btn btn-primary" disabled={busy}>
                  {t.mfa.submit}
                </button>
              </Form>
            </div>
            <div className="col-md-6">
              <h2 className="h5">{t.mfa.recoveryTitle}</h2>
              <p className="small text-body-secondary">{t.mfa.recoveryLead}</p>
              <RecoveryCodes codes={enrolment.recoveryCodes} locale={loaderData.locale} className="recovery-codes" />
            </div>
          </div>
        ) : verifyOnly ? (
          <Form method="post" noValidate className="col-md-6" onSubmit={verify.onSubmit}>
            <p>{t.mfa.afterIdp}</p>
            <input type="hidden" name="intent" value="session" />
            <TotpCodeField label={t.mfa.code} errors={verify.errors?.code} />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t.login.verify}
            </button>
          </Form>
        ) : needsPassword ? (
          <Form method="post" noValidate className="col-md-6" onSubmit={start.onSubmit}>
            <p>{t.mfa.passwordLead}</p>
            <input type="hidden" name="intent" value="start" />
            <FormField
              name="password"
              type="password"
              autoComplete="current-password"
              required
              label={t.mfa.password}
              errors={start.errors?.password}
            />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t.mfa.start}
            </button>
          </Form>
        ) : (
          <Form method="post" className="col-md-6">
            <input type="hidden" name="intent" value="start" />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {t.mfa.start}
            </button>
          </Form>
        )}
      </div>
    </div>
  );
}
