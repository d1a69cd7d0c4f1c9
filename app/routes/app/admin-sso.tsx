import { data, Form } from "react-router";
import { authFailure } from "../../.server/auth/form-errors";
import { appLocale, requestMeta, requireMember, withCookies } from "../../.server/auth/guard";
import { isRole } from "../../.server/auth/permissions";
import { requestContext, servicesContext } from "../../.server/context";
import { certificateValidTo } from "../../.server/sso/saml-metadata";
import { CardTable } from "../../components/app/card-table";
import { FormAlert, FormField } from "../../components/app/form-field";
import { appMessages, fill, formatDateTime } from "../../components/app/messages";
import { SsoRedirect } from "../../components/app/sso-redirect";
import type { Route } from "./+types/admin-sso";

export const handle = { layout: "bare" };

/** Enterprise identity (issue 41): the organisation's identity providers, domains, policy and SCIM. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = requireMember(context, "sso.manage");
  const { auth } = context.get(servicesContext);
  const settings = await auth.listSsoProviders(member);
  const groups = await auth.listGroups(member.organizationId);
  const members = await auth.listMembers(member.organizationId);
  const tokens = await auth.listScimTokens(member.organizationId);
  // Requests reach the app on SITE_URL's origin (server/site-server.ts): the URLs to copy are on it.
  const site = new URL(request.url).origin;
  return {
    locale: appLocale(context),
    isOwner: member.role === "owner",
    tested: new URL(request.url).searchParams.get("tested"),
    callbackUrl: `${site}/app/sso/oidc/callback`,
    scimUrl: `${site}/scim/v2`,
    providers: settings.providers.map((p) => ({
      id: p.id,
      kind: p.kind,
      name: p.name,
      enabled: p.enabled,
      testedAt: p.testedAt?.toISOString() ?? null,
      issuer: p.oidcIssuer,
      entityId: p.samlIdpEntityId,
      jit: p.jit,
      trustIdpMfa: p.trustIdpMfa,
      urls: p.kind === "saml" ? auth.samlUrls(p.id) : null,
      certificateValidTo: p.samlCertificate ? (certificateValidTo(p.samlCertificate)?.toISOString() ?? null) : null,
      // Set up by metadata URL: re-read daily and after a failed signature (decision 0163).
      metadata: p.samlMetadataUrl
        ? {
            url: p.samlMetadataUrl,
            fetchedAt: p.samlMetadataFetchedAt?.toISOString() ?? null,
            attemptedAt: p.samlMetadataAttemptedAt?.toISOString() ?? null,
            error: p.samlMetadataError,
          }
        : null,
      mappings: settings.mappings
        .filter((m) => m.providerId === p.id)
        .map((m) => ({ idpGroup: m.idpGroup, role: m.role, teamId: m.teamId })),
    })),
    domains: settings.domains.map((d) => ({
      domain: d.domain,
      challenge: d.challenge,
      verifiedAt: d.verifiedAt?.toISOString() ?? null,
      verifiedBy: d.verifiedBy,
    })),
    policy: { ssoRequired: settings.policy.ssoRequired, breakGlassUserId: settings.policy.breakGlassUserId },
    owners: members.filter((m) => m.role === "owner").map((m) => ({ userId: m.userId, name: m.name, email: m.email })),
    groups: groups.map((g) => ({ id: g.id, name: g.name })),
    scimTokens: tokens.map((t) => ({
      id: t.id,
      createdAt: t.createdAt.toISOString(),
      revokedAt: t.revokedAt?.toISOString() ?? null,
    })),
  };
}

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireMember(context, "sso.manage");
  const { auth } = context.get(servicesContext);
  const meta = requestMeta(request, context);
  const form = await request.formData();
  const intent = text(form, "intent");
  const providerId = text(form, "providerId");
  try {
    switch (intent) {
      case "create-oidc":
        await auth.createSsoProvider(
          actor,
          {
            kind: "oidc",
            name: text(form, "name"),
            issuer: text(form, "issuer"),
            clientId: text(form, "clientId"),
            clientSecret: text(form, "clientSecret"),
            scopes: text(form, "scopes"),
          },
          meta,
        );
        return { done: "created" as const };
      case "create-saml":
        await auth.createSsoProvider(
          actor,
          {
            kind: "saml",
            name: text(form, "name"),
            metadataUrl: text(form, "metadataUrl"),
            metadataXml: text(form, "metadataXml"),
            entryPoint: text(form, "entryPoint"),
            idpEntityId: text(form, "idpEntityId"),
            certificate: text(form, "certificate"),
          },
          meta,
        );
        return { done: "created" as const };
      case "test": {
        const begun = await auth.beginSso(providerId, { test: { userId: actor.userId } });
        // The page goes on to the IdP (SsoRedirect): a 302 out of a form post breaks form-action 'self'.
        const name = (await auth.listSsoProviders(actor)).providers.find((p) => p.id === providerId)?.name ?? "";
        return data({ go: begun.url, provider: name }, { headers: withCookies(begun.setCookies) });
      }
      case "enable":
      case "disable":
        await auth.setSsoProviderEnabled(actor, providerId, intent === "enable", meta);
        return { done: "saved" as const };
      case "settings":
        await auth.updateSsoProvider(
          actor,
          providerId,
          { jit: form.get("jit") === "on", trustIdpMfa: form.get("trustIdpMfa") === "on" },
          meta,
        );
        return { done: "saved" as const };
      case "mapping": {
        const names = form.getAll("idpGroup").map(String);
        const roles = form.getAll("role").map(String);
        const teams = form.getAll("teamId").map(String);
        const rows = names.map((idpGroup, index) => {
          const role = roles[index];
          return { idpGroup, role: isRole(role) ? role : null, teamId: teams[index] || null };
        });
        await auth.setSsoGroupMappings(actor, providerId, rows, meta);
        return { done: "saved" as const };
      }
      case "claim-domain":
        await auth.claimSsoDomain(actor, text(form, "domain"), meta);
        return { done: "saved" as const };
      case "verify-domain":
        return {
          done: (await auth.verifySsoDomainDns(actor, text(form, "domain"), meta))
            ? ("saved" as const)
            : ("dns" as const),
        };
      case "confirm-domain":
        await auth.confirmSsoDomainByOwner(actor, text(form, "domain"), meta);
        return { done: "saved" as const };
      case "policy":
        await auth.setSsoPolicy(
          actor,
          { ssoRequired: form.get("ssoRequired") === "on", breakGlassUserId: text(form, "breakGlassUserId") || null },
          meta,
        );
        return { done: "saved" as const };
      case "scim-create":
        return { scimToken: (await auth.createScimToken(actor, meta)).token };
      case "scim-revoke":
        await auth.revokeScimToken(actor, text(form, "id"), meta);
        return { done: "saved" as const };
      default:
        return { done: null };
    }
  } catch (error) {
    return authFailure(error, context.get(requestContext).log);
  }
}

/** A metadata re-read's stored problem (sso-metadata.ts) in the page's words. */
function metadataProblem(t: ReturnType<typeof appMessages>, code: string): string {
  if (code === "saml_metadata_other_idp") return t.ssoAdmin.metadataOtherIdp;
  if (code === "saml_metadata_unreachable") return t.ssoAdmin.metadataUnreachable;
  const errors = t.errors as Record<string, string>;
  return errors[code] ?? t.errors.generic;
}

function Copy({ label, value, id }: { label: string; value: string; id: string }) {
  return (
    <div className="mb-2">
      <label htmlFor={id} className="form-label small mb-0">
        {label}
      </label>
      <input id={id} className="form-control form-control-sm font-monospace" readOnly value={value} />
    </div>
  );
}

export default function AdminSso({ loaderData, actionData }: Route.ComponentProps) {
  const { locale, providers, domains, policy, owners, groups, scimTokens } = loaderData;
  const t = appMessages(locale);
  const s = t.ssoAdmin;
  const done = actionData && "done" in actionData ? actionData.done : null;
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  const scimToken = actionData && "scimToken" in actionData ? actionData.scimToken : undefined;
  const go = actionData && "go" in actionData ? actionData : undefined;
  return (
    <>
      <h1 className="h3">{s.title}</h1>
      <p className="text-body-secondary">{s.lead}</p>
      {go ? (
        <SsoRedirect
          url={go.go}
          label={t.sso.continueTo.replace("{provider}", go.provider)}
          status={t.sso.redirecting.replace("{provider}", go.provider)}
        />
      ) : null}
      {loaderData.tested ? <FormAlert kind="success">{s.tested}</FormAlert> : null}
      {done === "saved" || done === "created" ? <FormAlert kind="success">{s.saved}</FormAlert> : null}
      {done === "dns" ? <FormAlert kind="danger">{s.dnsMissing}</FormAlert> : null}
      <FormAlert kind="danger">{formError ? t.errors[formError] : undefined}</FormAlert>

      <section aria-labelledby="sso-providers" className="mb-5">
        <h2 id="sso-providers" className="h5">
          {s.providers}
        </h2>
        <Copy id="oidc-callback" label={s.callbackUrl} value={loaderData.callbackUrl} />
        {providers.length === 0 ? <p className="text-body-secondary">{s.none}</p> : null}
        {providers.map((p) => (
          <article key={p.id} className="card mb-3">
            <div className="card-body">
              <h3 className="h6 card-title">
                {p.name} <span className="badge text-bg-secondary">{p.kind.toUpperCase()}</span>{" "}
                <span className={`badge ${p.enabled ? "text-bg-success" : "text-bg-light border"}`}>
                  {p.enabled ? s.on : s.off}
                </span>
              </h3>
              <p className="small text-body-secondary mb-2">
                {p.issuer ?? p.entityId} ·{" "}
                {p.testedAt ? `${s.testedAt} ${formatDateTime(p.testedAt, locale)}` : s.notTested}
              </p>
              {p.urls ? (
                <>
                  <Copy id={`entity-${p.id}`} label={s.spEntityId} value={p.urls.spEntityId} />
                  <Copy id={`acs-${p.id}`} label={s.acsUrl} value={p.urls.acsUrl} />
                  <p className="small mb-2">
                    <a href={p.urls.spEntityId} download={`sp-metadata-${p.id}.xml`}>
                      {s.spMetadata}
                    </a>
                    {p.certificateValidTo ? (
                      <>
                        {" · "}
                        {s.certificateUntil} {formatDateTime(p.certificateValidTo, locale)}
                      </>
                    ) : null}
                  </p>
                  {p.metadata ? (
                    <div className="small mb-2" data-testid={`metadata-${p.id}`}>
                      <p className="mb-1">
                        {p.metadata.fetchedAt
                          ? fill(s.metadataFetched, {
                              url: p.metadata.url,
                              date: formatDateTime(p.metadata.fetchedAt, locale),
                            })
                          : fill(s.metadataNotFetched, { url: p.metadata.url })}
                      </p>
                      {p.metadata.error ? (
                        <p className="mb-1 text-danger-emphasis" data-testid={`metadata-error-${p.id}`}>
                          <strong>
                            {fill(s.metadataFailed, {
                              date: p.metadata.attemptedAt ? formatDateTime(p.metadata.attemptedAt, locale) : "",
                            })}
                          </strong>{" "}
                          {metadataProblem(t, p.metadata.error)}
                        </p>
                      ) : null}
                    </div>
                  ) : null}
                </>
              ) : null}
              {p.enabled || p.testedAt ? null : (
                <p className="small text-body-secondary mb-1" id={`test-first-${p.id}`}>
                  {s.testFirst}
                </p>
              )}
              <div className="d-flex flex-wrap gap-2 my-2">
                <Form method="post">
                  <input type="hidden" name="providerId" value={p.id} />
                  <button type="submit" name="intent" value="test" className="btn btn-outline-primary btn-sm">
                    {s.test}
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="providerId" value={p.id} />
                  <button
                    type="submit"
                    name="intent"
                    value={p.enabled ? "disable" : "enable"}
                    className="btn btn-outline-secondary btn-sm"
                    disabled={!p.enabled && !p.testedAt}
                    aria-describedby={p.enabled || p.testedAt ? undefined : `test-first-${p.id}`}
                  >
                    {p.enabled ? s.disable : s.enable}
                  </button>
                </Form>
              </div>
              <Form method="post" className="d-flex flex-wrap gap-3 align-items-center mb-3">
                <input type="hidden" name="providerId" value={p.id} />
                <input type="hidden" name="intent" value="settings" />
                <div className="form-check">
                  <input
                    className="form-check-input"
                    type="checkbox"
                    id={`jit-${p.id}`}
                    name="jit"
                    defaultChecked={p.jit}
                  />
                  <label className="form-check-label" htmlFor={`jit-${p.id}`}>
                    {s.jit}
                  </label>
                </div>
                <div className="form-check">
                  <input
                    className="form-check-input"
                    type="checkbox"
                    id={`mfa-${p.id}`}
                    name="trustIdpMfa"
                    defaultChecked={p.trustIdpMfa}
                  />
                  <label className="form-check-label" htmlFor={`mfa-${p.id}`}>
                    {s.trustMfa}
                  </label>
                </div>
                <button type="submit" className="btn btn-outline-secondary btn-sm">
                  {s.save}
                </button>
              </Form>
              <Form method="post">
                <input type="hidden" name="providerId" value={p.id} />
                <input type="hidden" name="intent" value="mapping" />
                {/* On a phone each mapping is a card: three fields side by side left the group's select 50 px wide. */}
                <CardTable className="table table-sm align-middle" labels={[s.idpGroup, s.role, s.group]}>
                  <caption className="caption-top small">{s.mapping}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{s.idpGroup}</th>
                      <th scope="col">{s.role}</th>
                      <th scope="col">{s.group}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {[...p.mappings, { idpGroup: "", role: null, teamId: null }].map((m, index) => (
                      <tr key={`${p.id}-${m.idpGroup || "new"}`}>
                        <td>
                          <input
                            className="form-control form-control-sm"
                            name="idpGroup"
                            defaultValue={m.idpGroup}
                            aria-label={`${s.idpGroup} ${index + 1}`}
                          />
                        </td>
                        <td>
                          <select
                            className="form-select form-select-sm"
                            name="role"
                            defaultValue={m.role ?? ""}
                            aria-label={`${s.role} ${index + 1}`}
                          >
                            <option value="">—</option>
                            <option value="admin">{t.roles.admin}</option>
                            <option value="member">{t.roles.member}</option>
                          </select>
                        </td>
                        <td>
                          <select
                            className="form-select form-select-sm"
                            name="teamId"
                            defaultValue={m.teamId ?? ""}
                            aria-label={`${s.group} ${index + 1}`}
                          >
                            <option value="">—</option>
                            {groups.map((g) => (
                              <option key={g.id} value={g.id}>
                                {g.name}
                              </option>
                            ))}
                          </select>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </CardTable>
                <button type="submit" className="btn btn-outline-secondary btn-sm">
                  {s.saveMapping}
                </button>
              </Form>
            </div>
          </article>
        ))}
        <div className="row g-4">
          <Form method="post" className="col-lg-6">
            <h3 className="h6">{s.addOidc}</h3>
            <input type="hidden" name="intent" value="create-oidc" />
            <FormField name="name" id="oidc-name" label={s.name} required maxLength={120} />
            <FormField name="issuer" id="oidc-issuer" label={s.issuer} required type="url" placeholder="https://" />
            <FormField name="clientId" id="oidc-client" label={s.clientId} required autoComplete="off" />
            <FormField
              name="clientSecret"
              id="oidc-secret"
              label={s.clientSecret}
              required
              type="password"
              autoComplete="off"
            />
            <FormField name="scopes" id="oidc-scopes" label={s.scopes} defaultValue="openid email profile" />
            <button type="submit" className="btn btn-primary">
              {s.add}
            </button>
          </Form>
          <Form method="post" className="col-lg-6">
            <h3 className="h6">{s.addSaml}</h3>
            <input type="hidden" name="intent" value="create-saml" />
            <FormField name="name" id="saml-name" label={s.name} required maxLength={120} />
            <div className="mb-3">
              <label htmlFor="saml-metadata-url" className="form-label">
                {s.metadataUrl}
              </label>
              <input
                id="saml-metadata-url"
                name="metadataUrl"
                type="url"
                className="form-control"
                placeholder="https://"
                aria-describedby="saml-metadata-url-help"
              />
              <div id="saml-metadata-url-help" className="form-text">
                {s.metadataUrlHelp}
              </div>
            </div>
            <div className="mb-3">
              <label htmlFor="saml-metadata-xml" className="form-label">
                {s.metadataXml}
              </label>
              <textarea
                id="saml-metadata-xml"
                name="metadataXml"
                className="form-control font-monospace"
                rows={3}
                spellCheck={false}
              />
            </div>
            <details className="mb-3">
              <summary>{s.byHand}</summary>
              <div className="mt-2">
                <FormField name="entryPoint" id="saml-sso" label={s.entryPoint} type="url" placeholder="https://" />
                <FormField name="idpEntityId" id="saml-entity" label={s.idpEntityId} />
                <div className="mb-3">
                  <label htmlFor="saml-cert" className="form-label">
                    {s.certificate}
                  </label>
                  <textarea
                    id="saml-cert"
                    name="certificate"
                    className="form-control font-monospace"
                    rows={4}
                    spellCheck={false}
                  />
                </div>
              </div>
            </details>
            <button type="submit" className="btn btn-primary">
              {s.add}
            </button>
          </Form>
        </div>
      </section>

      <section aria-labelledby="sso-domains" className="mb-5">
        <h2 id="sso-domains" className="h5">
          {s.domains}
        </h2>
        <p className="small text-body-secondary">{s.domainsLead}</p>
        {/* A list, not a table: the TXT record is long and must stay readable on a phone. */}
        <ul className="list-group mb-3">
          {domains.map((d) => (
            <li key={d.domain} className="list-group-item">
              <div className="d-flex flex-wrap justify-content-between gap-2">
                <strong>{d.domain}</strong>
                <span className={`badge ${d.verifiedAt ? "text-bg-success" : "text-bg-warning"}`}>
                  {d.verifiedAt ? (d.verifiedBy === "owner" ? s.byOwner : s.byDns) : s.pending}
                </span>
              </div>
              {d.verifiedAt ? null : (
                <>
                  <p className="small mb-1 mt-2">{s.txt}</p>
                  <code className="d-block small text-break user-select-all mb-2">
                    _vigia-challenge.{d.domain} TXT "{d.challenge}"
                  </code>
                  <Form method="post" className="d-flex flex-wrap gap-2">
                    <input type="hidden" name="domain" value={d.domain} />
                    <button
                      type="submit"
                      name="intent"
                      value="verify-domain"
                      className="btn btn-outline-secondary btn-sm"
                    >
                      {s.verify}
                    </button>
                    {loaderData.isOwner ? (
                      <button
                        type="submit"
                        name="intent"
                        value="confirm-domain"
                        className="btn btn-outline-secondary btn-sm"
                      >
                        {s.confirm}
                      </button>
                    ) : null}
                  </Form>
                </>
              )}
            </li>
          ))}
        </ul>
        <Form method="post" className="d-flex gap-2 align-items-end">
          <input type="hidden" name="intent" value="claim-domain" />
          <FormField name="domain" id="claim-domain" label={s.domain} required placeholder="example.com" />
          <button type="submit" className="btn btn-primary mb-3">
            {s.claim}
          </button>
        </Form>
      </section>

      <section aria-labelledby="sso-policy" className="mb-5">
        <h2 id="sso-policy" className="h5">
          {s.policy}
        </h2>
        <Form method="post">
          <input type="hidden" name="intent" value="policy" />
          <fieldset disabled={!loaderData.isOwner}>
            <div className="form-check mb-2">
              <input
                className="form-check-input"
                type="checkbox"
                id="sso-required"
                name="ssoRequired"
                defaultChecked={policy.ssoRequired}
              />
              <label className="form-check-label" htmlFor="sso-required">
                {s.required}
              </label>
            </div>
            <div className="mb-3 col-md-6">
              <label htmlFor="break-glass" className="form-label">
                {s.breakGlass}
              </label>
              <select
                id="break-glass"
                name="breakGlassUserId"
                className="form-select"
                defaultValue={policy.breakGlassUserId ?? ""}
              >
                <option value="">—</option>
                {owners.map((o) => (
                  <option key={o.userId} value={o.userId}>
                    {o.name} ({o.email})
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn btn-primary">
              {s.save}
            </button>
          </fieldset>
        </Form>
      </section>

      <section aria-labelledby="sso-scim" className="mb-5">
        <h2 id="sso-scim" className="h5">
          SCIM 2.0
        </h2>
        <Copy id="scim-url" label={s.scimUrl} value={loaderData.scimUrl} />
        {scimToken ? (
          <div className="alert alert-success" role="status">
            <p className="mb-1">{s.scimShown}</p>
            <code className="d-block text-break user-select-all">{scimToken}</code>
          </div>
        ) : null}
        <ul className="list-unstyled">
          {scimTokens.map((token) => (
            <li key={token.id} className="d-flex gap-2 align-items-center mb-2">
              <span>
                {formatDateTime(token.createdAt, locale)} · {token.revokedAt ? s.revoked : s.active}
              </span>
              {token.revokedAt ? null : (
                <Form method="post">
                  <input type="hidden" name="id" value={token.id} />
                  <button type="submit" name="intent" value="scim-revoke" className="btn btn-outline-danger btn-sm">
                    {s.revoke}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        <Form method="post">
          <button type="submit" name="intent" value="scim-create" className="btn btn-primary">
            {s.scimCreate}
          </button>
        </Form>
      </section>
    </>
  );
}
