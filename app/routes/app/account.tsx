import { Form, redirect, useRevalidator } from "react-router";
import { authFailure, invalidForm } from "../../.server/auth/form-errors";
import { appLocale, appSessionContext, requestMeta, requireMember, withCookies } from "../../.server/auth/guard";
import { requestContext, servicesContext } from "../../.server/context";
import { reminderSettingsOf, saveReminderSettings } from "../../.server/triage/page";
import { CardTable } from "../../components/app/card-table";
import { CalendarLink } from "../../components/app/evidence/calendar-link";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages, fill, formatDateTime } from "../../components/app/messages";
import { PasskeyRegister } from "../../components/app/passkey";
import { RecoveryCodes } from "../../components/app/recovery-codes";
import { ReminderSettingsForm, type ReminderSettingsResult } from "../../components/app/triage/reminder-settings";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { changePasswordSchema, parseForm, passwordOnlySchema } from "../../lib/app-auth-schema";
import type { Route } from "./+types/account";

export const handle = { layout: "bare" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "account.manage");
  const current = context.get(appSessionContext)!;
  const { auth } = context.get(servicesContext);
  const [sessions, passkeys] = await Promise.all([auth.listSessions(member.userId), auth.listPasskeys(member.userId)]);
  return {
    reminders: await reminderSettingsOf(context.get(servicesContext).api.database.db, member.userId),
    locale: appLocale(context),
    passwordChanged: new URL(request.url).searchParams.has("password"),
    sessions: sessions.map((row) => ({
      id: row.id,
      current: row.id === current.sessionId,
      userAgent: row.userAgent ?? "",
      ip: row.ipAddress ?? "",
      lastSeenAt: row.lastSeenAt.toISOString(),
    })),
    passkeys: passkeys.map((row) => ({
      id: row.id,
      name: row.name ?? "",
      createdAt: row.createdAt?.toISOString() ?? null,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireMember(context, "account.manage");
  const locale = appLocale(context);
  const current = context.get(appSessionContext)!;
  const { auth } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "reminders.save") {
    const { db } = context.get(servicesContext).api.database;
    return {
      intent,
      reminders: await saveReminderSettings(db, requireMember(context, "account.manage"), locale, form, meta),
    };
  }
  try {
    if (intent === "end-session") {
      const ended = await auth.endSessions(current, { sessionId: String(form.get("sessionId") ?? "") }, meta);
      return { intent, ended };
    }
    if (intent === "end-others") {
      return { intent, ended: await auth.endSessions(current, "others", meta) };
    }
    if (intent === "password") {
      const parsed = parseForm(changePasswordSchema(locale), form);
      if (!parsed.ok) return invalidForm(parsed.errors);
      const cookies = await auth.changePassword(current, parsed.data, meta);
      return redirect("/app/account?password=1", { headers: withCookies(cookies) });
    }
    if (intent === "remove-passkey") {
      const removed = await auth.deletePasskey(current, String(form.get("passkeyId") ?? ""), meta);
      return { intent, removed };
    }
    if (intent === "recovery-codes") {
      const parsed = parseForm(passwordOnlySchema(locale), form);
      if (!parsed.ok) return invalidForm(parsed.errors);
      return { intent, codes: await auth.regenerateRecoveryCodes(current, parsed.data.password, meta) };
    }
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
  return invalidForm({ intent: ["unknown"] });
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, sessions, passkeys } = loaderData;
  const revalidator = useRevalidator();
  const t = appMessages(locale);
  const result = actionData && "intent" in actionData ? actionData : undefined;
  const failure = actionData && !("intent" in actionData) ? actionData : undefined;
  const passwordForm = useSchemaValidation(changePasswordSchema(locale), failure?.errors);
  const codesForm = useSchemaValidation(passwordOnlySchema(locale), failure?.errors);
  const { passwordChanged } = loaderData;
  return (
    <>
      <h1 className="h3 mb-4">{t.account.title}</h1>
      <FormAlert kind="danger">{failure?.formError ? t.errors[failure.formError] : undefined}</FormAlert>
      {passwordChanged ? <FormAlert kind="success">{t.account.passwordChanged}</FormAlert> : null}
      <ReminderSettingsForm
        locale={locale}
        settings={loaderData.reminders}
        result={result && "reminders" in result ? (result.reminders as ReminderSettingsResult) : undefined}
      />
      <section className="mb-5" aria-labelledby="account-sessions">
        <h2 id="account-sessions" className="h5">
          {t.account.sessions}
        </h2>
        <p className="text-body-secondary small">{t.account.sessionsLead}</p>
        {result && "ended" in result ? (
          <FormAlert kind="success">{fill(t.account.ended, { count: result.ended ?? 0 })}</FormAlert>
        ) : null}
        <div className="table-responsive">
          <CardTable labels={[t.account.device, t.account.ip, t.account.lastSeen, ""]} className="table align-middle">
            <thead>
              <tr>
                <th scope="col">{t.account.device}</th>
                <th scope="col">{t.account.ip}</th>
                <th scope="col">{t.account.lastSeen}</th>
                <th scope="col">
                  <span className="visually-hidden">{t.members.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((row) => (
                <tr key={row.id} data-testid="session-row">
                  <td className="small text-break">{row.userAgent || "—"}</td>
                  <td className="small">{row.ip || "—"}</td>
                  <td className="small">{formatDateTime(row.lastSeenAt, locale)}</td>
                  <td className="text-end">
                    {row.current ? (
                      <span className="badge text-bg-success">{t.account.thisSession}</span>
                    ) : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="end-session" />
                        <input type="hidden" name="sessionId" value={row.id} />
                        <button type="submit" className="btn btn-sm btn-outline-danger">
                          {t.account.end}
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </CardTable>
        </div>
        <Form method="post">
          <input type="hidden" name="intent" value="end-others" />
          <button type="submit" className="btn btn-outline-danger btn-sm">
            {t.account.endOthers}
          </button>
        </Form>
      </section>
      {/* mb-5: the calendar's heading does not sit on the passkey button. */}
      <div className="row g-4 mb-5">
        <section className="col-lg-6" aria-labelledby="account-password">
          <h2 id="account-password" className="h5">
            {t.account.password}
          </h2>
          <Form method="post" noValidate onSubmit={passwordForm.onSubmit}>
            <input type="hidden" name="intent" value="password" />
            <input type="text" name="username" autoComplete="username" hidden readOnly />
            <FormField
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              required
              label={t.account.currentPassword}
              errors={passwordForm.errors?.currentPassword}
            />
            <FormField
              name="newPassword"
              type="password"
              autoComplete="new-password"
              minLength={12}
              required
              label={t.account.newPassword}
              errors={passwordForm.errors?.newPassword}
            />
            <button type="submit" className="btn btn-primary">
              {t.account.changePassword}
            </button>
          </Form>
        </section>
        <section className="col-lg-6" aria-labelledby="account-mfa">
          <h2 id="account-mfa" className="h5">
            {t.account.mfa}
          </h2>
          <p className="text-body-secondary small">{t.account.mfaLead}</p>
          {result && "codes" in result && result.codes ? (
            <>
              <p>{t.account.newCodes}</p>
              <RecoveryCodes codes={result.codes} locale={locale} />
            </>
          ) : null}
          <Form method="post" noValidate onSubmit={codesForm.onSubmit}>
            <input type="hidden" name="intent" value="recovery-codes" />
            <p className="small text-body-secondary">{t.account.regenerateLead}</p>
            <FormField
              name="password"
              id="field-codes-password"
              type="password"
              autoComplete="current-password"
              required
              label={t.mfa.password}
              errors={codesForm.errors?.password}
            />
            <button type="submit" className="btn btn-outline-primary">
              {t.account.regenerate}
            </button>
          </Form>
          <h3 className="h6 mt-4" id="account-passkeys">
            {t.account.passkeys}
          </h3>
          <p className="text-body-secondary small">{t.account.passkeysLead}</p>
          {result && "removed" in result && result.removed ? (
            <FormAlert kind="success">{t.account.passkeyRemoved}</FormAlert>
          ) : null}
          {passkeys.length === 0 ? (
            <p className="small">{t.account.noPasskeys}</p>
          ) : (
            <ul className="list-group mb-2" aria-labelledby="account-passkeys">
              {passkeys.map((row) => (
                <li
                  key={row.id}
                  className="list-group-item d-flex justify-content-between align-items-center gap-2"
                  data-testid="passkey-row"
                >
                  <span>
                    {row.name || t.account.passkeys}
                    <span className="d-block small text-body-secondary">{formatDateTime(row.createdAt, locale)}</span>
                  </span>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove-passkey" />
                    <input type="hidden" name="passkeyId" value={row.id} />
                    <button type="submit" className="btn btn-sm btn-outline-danger">
                      {t.account.removePasskey}
                      <span className="visually-hidden"> {row.name}</span>
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
          <PasskeyRegister t={t} onAdded={() => revalidator.revalidate()} />
        </section>
      </div>
      <CalendarLink locale={locale} />
    </>
  );
}
