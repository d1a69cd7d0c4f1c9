import { type FormEvent, Fragment, useEffect, useRef } from "react";
import { Form, redirect, useNavigation } from "react-router";
import { authFailure, invalidForm, limitedFormHeaders } from "../../.server/auth/form-errors";
import {
  appLocale,
  appMemberContext,
  appSessionContext,
  requestMeta,
  safeNext,
  withCookies,
} from "../../.server/auth/guard";
import { requestContext, servicesContext } from "../../.server/context";
import { FormAlert, FormField, TotpCodeField } from "../../components/app/form-field";
import { appMessages } from "../../components/app/messages";
import { PasskeySignIn } from "../../components/app/passkey";
import { useSchemaValidation } from "../../components/app/use-schema-validation";
import { loginSchema, parseForm, secondFactorSchema } from "../../lib/app-auth-schema";
import type { Route } from "./+types/login";

export const handle = { layout: "bare" };

/** A refused sign-in (429) tells when to try again: the action's Retry-After reaches the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return limitedFormHeaders(actionHeaders);
}

const twoFactorCookie = /(?:^|;\s*)(?:__Secure-)?vn\.two_factor=[^;]+/;

export function loader({ request, context }: Route.LoaderArgs) {
  if (context.get(appMemberContext)) throw redirect("/app");
  const current = context.get(appSessionContext);
  if (current && !current.mfaVerified) throw redirect("/app/mfa");
  const url = new URL(request.url);
  return {
    locale: appLocale(context),
    stage: twoFactorCookie.test(request.headers.get("cookie") ?? "") ? ("second" as const) : ("password" as const),
    notice: url.searchParams.has("signedout")
      ? ("signedOut" as const)
      : url.searchParams.has("ended")
        ? ("ended" as const)
        : null,
    next: safeNext(url.searchParams.get("next")),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const locale = appLocale(context);
  const form = await request.formData();
  const intent = form.get("intent");
  const { auth } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  const next = safeNext(new URL(request.url).searchParams.get("next"));
  const log = context.get(requestContext).log;
  if (intent === "restart") {
    return redirect("/app/login", {
      headers: { "Set-Cookie": `vn.two_factor=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax` },
    });
  }
  if (intent === "totp" || intent === "recovery") {
    form.set("method", intent);
    const parsed = parseForm(secondFactorSchema(locale), form);
    if (!parsed.ok) return invalidForm(parsed.errors);
    try {
      const cookies = await auth.verifySecondFactor(parsed.data.method, parsed.data.code, meta);
      return redirect(next, { headers: withCookies(cookies) });
    } catch (error) {
      return authFailure(error, log);
    }
  }
  const parsed = parseForm(loginSchema(locale), form);
  if (!parsed.ok) return invalidForm(parsed.errors);
  try {
    const result = await auth.signIn(parsed.data.email, parsed.data.password, meta);
    const target =
      result.value.next === "enrol"
        ? "/app/mfa"
        : `/app/login${next === "/app" ? "" : `?next=${encodeURIComponent(next)}`}`;
    return redirect(target, { headers: withCookies(result.setCookies) });
  } catch (error) {
    return authFailure(error, log);
  }
}

/** What was typed between the password's submit and the second step's arrival. */
interface TypedAhead {
  keys: string;
  enter: boolean;
}

/**
 * Keys typed while the password is being checked belong to the code field that is on its way
 * (issue 37 item 12): a person who knows the flow, or a script, types the code right after
 * Enter, and those keys went into the password field and were lost with it (a shorter code, or
 * none, submitted). They are held from the submit until the second step mounts, then put in its
 * code field, and a held Enter submits it; if the first step fails instead, they are dropped.
 */
function useTypeAhead(stage: "password" | "second", idle: boolean) {
  const held = useRef<TypedAhead | null>(null);
  const codeForm = useRef<HTMLFormElement | null>(null);
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      const ahead = held.current;
      if (!ahead || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      if (event.key === "Enter") ahead.enter = true;
      else if (event.key === "Backspace") ahead.keys = ahead.keys.slice(0, -1);
      else if (event.key.length === 1) ahead.keys += event.key;
      else return;
      event.preventDefault();
    }
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, []);
  useEffect(() => {
    const ahead = held.current;
    if (!ahead) return;
    if (stage === "second") {
      held.current = null;
      const field = codeForm.current?.querySelector<HTMLInputElement>("#field-totp");
      if (!field) return;
      field.value = ahead.keys.replace(/\s+/g, "").slice(0, field.maxLength > 0 ? field.maxLength : undefined);
      field.focus();
      if (ahead.enter && field.value) codeForm.current?.requestSubmit();
    } else if (idle) {
      // The first step answered with an error: it shows, and the keys are not a password.
      held.current = null;
    }
  }, [stage, idle]);
  return {
    codeForm,
    /** After the password form's own checks: start holding keys if it is really being sent. */
    onPasswordSubmitted(event: FormEvent<HTMLFormElement>) {
      if (!event.defaultPrevented) held.current = { keys: "", enter: false };
    },
  };
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, stage, notice, next } = loaderData;
  const t = appMessages(locale);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { errors, onSubmit } = useSchemaValidation(loginSchema(locale), actionData?.errors);
  const { codeForm, onPasswordSubmitted } = useTypeAhead(stage, navigation.state === "idle");
  const formError = actionData?.formError ? t.errors[actionData.formError] : undefined;
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-5">
        <h1 className="h3 mb-3">{stage === "second" ? t.login.secondTitle : t.login.title}</h1>
        {notice ? <FormAlert kind="info">{t.login[notice]}</FormAlert> : null}
        <FormAlert kind="danger">{formError}</FormAlert>
        {/* Distinct keys: the second step arrives by client-side navigation, and React must not
            reuse the first step's inputs (with what was typed in them) for the second's. */}
        {stage === "password" ? (
          <Fragment key="password-step">
            <p className="text-body-secondary">{t.login.lead}</p>
            <Form
              method="post"
              noValidate
              onSubmit={(event) => {
                onSubmit(event);
                onPasswordSubmitted(event);
              }}
              key="password-form"
            >
              <input type="hidden" name="intent" value="password" />
              <FormField
                key="email"
                name="email"
                type="email"
                autoComplete="username"
                // The one task on this page: people start typing at once.
                autoFocus
                required
                label={t.login.email}
                errors={errors?.email}
              />
              <FormField
                name="password"
                type="password"
                autoComplete="current-password"
                required
                label={t.login.password}
                errors={errors?.password}
              />
              <button type="submit" className="btn btn-primary w-100" disabled={busy}>
                {t.login.submit}
              </button>
            </Form>
            <p className="mt-3">
              <a href="/app/reset">{t.login.forgot}</a>
              <span aria-hidden="true"> · </span>
              <a href="/app/sso">{t.sso.loginLink}</a>
            </p>
          </Fragment>
        ) : (
          <Fragment key="second-step">
            <p className="text-body-secondary">{t.login.secondLead}</p>
            <Form method="post" noValidate className="mb-4" key="totp-form" ref={codeForm}>
              <input type="hidden" name="intent" value="totp" />
              <TotpCodeField
                key="totp"
                id="field-totp"
                autoFocus
                label={t.login.code}
                errors={actionData?.errors?.code}
              />
              <button type="submit" className="btn btn-primary w-100" disabled={busy}>
                {t.login.verify}
              </button>
            </Form>
            <PasskeySignIn t={t} next={next} />
            <h2 className="h6">{t.login.recoveryTitle}</h2>
            <Form method="post" noValidate className="mb-3" key="recovery-form">
              <input type="hidden" name="intent" value="recovery" />
              <FormField
                key="recovery"
                name="code"
                id="field-recovery"
                autoComplete="off"
                required
                label={t.login.recovery}
              />
              <button type="submit" className="btn btn-outline-secondary w-100" disabled={busy}>
                {t.login.useRecovery}
              </button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="restart" />
              <button type="submit" className="btn btn-link px-0">
                {t.login.restart}
              </button>
            </Form>
          </Fragment>
        )}
      </div>
    </div>
  );
}
