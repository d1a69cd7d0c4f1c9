/**
 * The browser's half of the passkey ceremonies: ask the server for options, let the browser talk to
 * the authenticator (@simplewebauthn/browser, loaded only on click), send the answer back.
 * Both buttons render only once hydrated: without JavaScript there is no WebAuthn.
 */
import { useEffect, useId, useState } from "react";
import type { AppMessages } from "./messages";

type ErrorKey = keyof AppMessages["errors"];

async function post(step: string, body: unknown): Promise<{ ok: boolean; json: Record<string, unknown> }> {
  const response = await fetch(`/app/passkey/${step}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body ?? {}),
    credentials: "same-origin",
  });
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: response.ok, json };
}

function errorOf(json: Record<string, unknown>): ErrorKey {
  return typeof json.formError === "string" ? (json.formError as ErrorKey) : "passkey_failed";
}

function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The sign-in's second factor with a passkey; on success the browser goes to `next`. */
export function PasskeySignIn({ t, next }: { t: AppMessages; next: string }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorKey | null>(null);
  if (!hydrated || typeof window.PublicKeyCredential === "undefined") return null;
  async function run() {
    setBusy(true);
    setError(null);
    try {
      const challenge = await post("challenge", {});
      if (!challenge.ok) throw errorOf(challenge.json);
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const answer = await startAuthentication({ optionsJSON: challenge.json.options as never });
      const verified = await post("verify", { response: answer, next });
      if (!verified.ok) throw errorOf(verified.json);
      window.location.assign(typeof verified.json.next === "string" ? verified.json.next : "/app");
    } catch (problem) {
      setError(typeof problem === "string" ? (problem as ErrorKey) : "passkey_failed");
      setBusy(false);
    }
  }
  return (
    <section className="mb-4" aria-labelledby="passkey-title">
      <h2 id="passkey-title" className="h6">
        {t.login.passkeyTitle}
      </h2>
      {error ? (
        <div className="alert alert-danger" role="alert">
          {t.errors[error]}
        </div>
      ) : null}
      <button type="button" className="btn btn-outline-primary w-100" onClick={run} disabled={busy}>
        {t.login.passkey}
      </button>
    </section>
  );
}

/** Adding a passkey to the signed-in account; `onAdded` reloads the list. */
export function PasskeyRegister({ t, onAdded }: { t: AppMessages; onAdded(): void }) {
  const hydrated = useHydrated();
  const nameId = useId();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: "danger" | "success"; text: string } | null>(null);
  if (!hydrated) return <p className="small text-body-secondary">{t.account.passkeyNeedsScript}</p>;
  async function run(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const options = await post("register-options", {});
      if (!options.ok) throw errorOf(options.json);
      const { startRegistration } = await import("@simplewebauthn/browser");
      const answer = await startRegistration({ optionsJSON: options.json.options as never });
      const saved = await post("register", { response: answer, name });
      if (!saved.ok) throw errorOf(saved.json);
      setName("");
      setMessage({ kind: "success", text: t.account.passkeyAdded });
      onAdded();
    } catch (problem) {
      setMessage({
        kind: "danger",
        text: t.errors[typeof problem === "string" ? (problem as ErrorKey) : "passkey_failed"],
      });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={run} className="mt-3">
      {message ? (
        <div className={`alert alert-${message.kind}`} role={message.kind === "danger" ? "alert" : "status"}>
          {message.text}
        </div>
      ) : null}
      <div className="mb-3">
        <label htmlFor={nameId} className="form-label">
          {t.account.passkeyName}
        </label>
        <input
          id={nameId}
          className="form-control"
          value={name}
          maxLength={80}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-outline-primary" disabled={busy}>
        {t.account.addPasskey}
      </button>
    </form>
  );
}
