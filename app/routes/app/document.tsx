import { data, redirect } from "react-router";
import { appLocale, requestMeta, requireMember } from "../../.server/auth/guard";
import { can } from "../../.server/auth/permissions";
import { labelHistory } from "../../.server/classify/history";
import { topicsOfDocument } from "../../.server/classify/topics";
import { servicesContext } from "../../.server/context";
import { documentChanges } from "../../.server/documents/changes";
import { getDocument } from "../../.server/documents/search";
import { lawChangePath } from "../../.server/law-texts/store";
import { followsOf } from "../../.server/laws/follow-page";
import { listOrganisationFollows } from "../../.server/laws/follows";
import { reviewPathOf } from "../../.server/triage/law-anchors";
import { triageFormAction, triageIntents, triagePanelView } from "../../.server/triage/page";
import { CardTable } from "../../components/app/card-table";
import { DocumentBadges } from "../../components/app/documents/document-badges";
import { type CollabResult, DocumentNotes, DocumentShare } from "../../components/app/documents/document-collab";
import {
  AddedBy,
  CorrectionForm,
  type CorrectionResult,
  correctionMessages,
  RemovedAreas,
} from "../../components/app/documents/document-corrections";
import { DocumentText } from "../../components/app/documents/document-text";
import { areaLabel, formatDay, formatScore, jurisdictionLabel, kindLabel } from "../../components/app/documents/labels";
import { DocumentChanges } from "../../components/app/laws/amends-laws";
import { appMessages, fill, formatDateTime } from "../../components/app/messages";
import { ObligationsPanel, TriagePanel, type TriageResult } from "../../components/app/triage/triage-panel";
import { plural } from "../../lib/plural";
import type { Route } from "./+types/document";
import { openDocument } from "./document.server";
import { type CollabOutcome, collabAction, collabView } from "./document-collab.server";
import { correctionAction, correctionIntent, correctionsView } from "./document-corrections.server";

export const handle = { layout: "bare" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const member = requireMember(context, "documents.read");
  const meta = requestMeta(request, context);
  const database = context.get(servicesContext).api.database;
  const opened = await openDocument(database, member, params.id, {
    ip: meta.ip,
    userAgent: meta.userAgent,
  });
  if (!opened) {
    // A followed law's alert carries the law change's id: its page is the law's, at that change.
    const lawChange = await lawChangePath(database, params.id);
    if (lawChange) throw redirect(lawChange);
    // An obligation review's notification carries the review's id: its page is the review's.
    const review = await reviewPathOf(database.db, member.organizationId, params.id);
    if (review) throw redirect(review);
    throw data("Not found", { status: 404 });
  }
  const { document, reasons, readers } = opened;
  const paragraphParam = Number(new URL(request.url).searchParams.get("paragraph") ?? "");
  const [topics, history, corrections, triage, follows] = await Promise.all([
    topicsOfDocument(database.db, member.organizationId, document.id),
    labelHistory(database.db, document.id),
    correctionsView(database.db, member.organizationId, document.id),
    triagePanelView(database.db, member.organizationId, document.id),
    followsOf(database, member),
  ]);
  // What this act changes: the law pages the organisation reaches (the laws it follows), and
  // whether this member follows each law (their own and their groups' follows).
  const reached = new Set((await listOrganisationFollows(database, member.organizationId)).map((f) => f.lawId));
  const changes = await documentChanges(database, document.id, {
    reached,
    followed: new Set(follows.map((f) => f.lawId)),
  });
  // The evidence pack of this document (admins and owners: it holds every member's reads and the audit excerpt).
  const evidenceHref = can(member, "audit.export")
    ? `/app/evidence?${new URLSearchParams({ document: document.id })}`
    : null;
  // Relations to a law the organisation reaches lead to its page (it is on the platform as a law, not as a document).
  const relatedLaws = document.relations
    .filter((relation) => !relation.documentId && reached.has(relation.targetSourceId))
    .map((relation) => relation.targetSourceId);
  return {
    evidenceHref,
    relatedLaws,
    changes,
    triage,
    topics,
    corrections,
    history,
    backHref: searchReferer(request),
    collab: await collabView(database, member, document.id),
    annotate: Number.isInteger(paragraphParam) && paragraphParam >= 1 ? paragraphParam : null,
    locale: appLocale(context),
    document: {
      id: document.id,
      source: document.source,
      sourceId: document.sourceId,
      title: document.title,
      language: document.language,
      publishedOn: document.publishedOn,
      effectiveDates: document.effectiveDates,
      kind: document.kind,
      rank: document.rank,
      department: document.department,
      jurisdiction: document.jurisdiction,
      relevance: document.relevance,
      officialUrl: document.officialUrl,
      sample: document.sample,
      replayedFrom: document.replayedFrom,
      section: document.section,
      epigraph: document.epigraph,
      links: document.links,
      feedName: document.feedName,
      version: document.version,
      areas: document.areas.map((area) => ({
        id: area.id,
        score: area.score,
        reasons: area.reasons,
        explanations: ((area as { explanations?: { es: string; en: string }[] }).explanations ?? []).map((e) => ({
          es: e.es,
          en: e.en,
        })),
      })),
      subjects: document.subjects,
      eurovoc: document.eurovoc,
      relations: document.relations,
      paragraphs: document.paragraphs,
      provenance: document.provenance,
    },
    reasons,
    readers,
  };
}

/** Back to the search the reader came from (same origin, /app/search only), or to an empty search. */
function searchReferer(request: Request): string {
  try {
    const referer = new URL(request.headers.get("referer") ?? "");
    if (referer.origin === new URL(request.url).origin && referer.pathname === "/app/search") {
      return `/app/search${referer.search}`;
    }
  } catch {
    // No or malformed Referer: the plain search.
  }
  return "/app/search";
}

/** Notes (create, edit, delete: the author's) and shares (email, a group's chat), audited; forms that work without JavaScript. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const member = requireMember(context, "documents.read");
  const services = context.get(servicesContext);
  const database = services.api.database;
  const document = await getDocument(database, params.id, member.organizationId);
  if (!document) throw data("Not found", { status: 404 });
  const meta = requestMeta(request, context);
  const form = await request.formData();
  if ((triageIntents as readonly unknown[]).includes(form.get("intent"))) {
    const origin = { ip: meta.ip, userAgent: meta.userAgent };
    const deps = { db: database.db, member, locale: appLocale(context), documentId: document.id, origin };
    const outcome = await triageFormAction(deps, form);
    if (!outcome) throw data("Not found", { status: 404 });
    return data(outcome, { status: "status" in outcome ? outcome.status : 200 });
  }
  if (form.get("intent") === correctionIntent) {
    const corrected = await correctionAction(
      {
        database,
        member,
        locale: appLocale(context),
        documentId: document.id,
        origin: { ip: meta.ip, userAgent: meta.userAgent },
        rematch: (documentId) => services.alerts.queueMatch(documentId),
      },
      form,
    );
    if (!corrected) throw data("Not found", { status: 404 });
    return data(corrected, { status: "status" in corrected ? corrected.status : 200 });
  }
  const outcome = await collabAction(
    {
      database,
      member,
      locale: appLocale(context),
      documentId: document.id,
      paragraphCount: document.paragraphs.length,
      origin: { ip: meta.ip, userAgent: meta.userAgent },
      mailFrom: services.config?.mailFrom ?? "web@example.com",
      siteUrl: services.config?.siteUrl ?? new URL(request.url).origin,
    },
    form,
  );
  if (!outcome) return data<CollabOutcome>({ failure: "not_found", status: 404 }, { status: 400 });
  return data(outcome, { status: "status" in outcome ? outcome.status : 200 });
}

export default function DocumentPage({ loaderData, actionData }: Route.ComponentProps) {
  const {
    locale,
    document: doc,
    reasons,
    readers,
    collab,
    annotate,
    backHref,
    topics,
    history,
    corrections,
    triage,
    evidenceHref,
  } = loaderData;
  const result = actionData as CollabResult | undefined;
  const correctionResult = actionData as CorrectionResult | undefined;
  const addedBy = new Map<string, (typeof corrections)[number]>(
    corrections.filter((c) => c.action === "add").map((c) => [c.area, c]),
  );
  const app = appMessages(locale);
  const t = app.docs.document;
  const reuse =
    doc.source === "feed"
      ? fill(t.reuse.feed, { name: doc.feedName ?? doc.officialUrl })
      : ((t.reuse as Record<string, string>)[doc.source] ?? "");
  const relationLabel = (type: string) => (t.relationTypes as Record<string, string>)[type] ?? type;
  const otherLinks = Object.entries(doc.links).filter(([, href]) => href && href !== doc.officialUrl);
  return (
    <article aria-labelledby="doc-title">
      <p className="mb-2">
        <a href={backHref}>{t.back}</a>
      </p>
      <h1 id="doc-title" className="h3" lang={doc.language}>
        {doc.title || app.docs.untitled}
      </h1>
      <DocumentBadges document={doc} locale={locale} />
      <p className="mt-2">
        <a href={doc.officialUrl} rel="noopener noreferrer" className="fw-semibold">
          {t.official}
        </a>
        <span className="text-body-secondary"> · {doc.sourceId}</span>
      </p>
      <div className="row g-3">
        <div className="col-lg-8 order-2 order-lg-1">
          <DocumentChanges locale={locale} changes={loaderData.changes} />
          <section aria-labelledby="doc-text-heading" className="mb-4">
            <h2 id="doc-text-heading" className="h5">
              {t.text}
            </h2>
            {doc.paragraphs.length > 0 ? (
              <DocumentText paragraphs={doc.paragraphs} lang={doc.language} />
            ) : (
              <p className="text-body-secondary">{t.noText}</p>
            )}
          </section>
          <ObligationsPanel
            locale={locale}
            data={triage}
            paragraphs={doc.paragraphs}
            result={actionData as TriageResult | undefined}
          />
          <DocumentNotes locale={locale} collab={collab} result={result} annotate={annotate} />
          <section aria-labelledby="doc-provenance" className="mb-4">
            <h2 id="doc-provenance" className="h5">
              {t.provenance}
            </h2>
            <p className="small text-body-secondary">
              {t.provenanceLead} {fill(t.version, { version: doc.version })}.
            </p>
            {doc.provenance.length === 0 ? (
              <p className="small" data-testid="provenance-none">
                {t.noProvenance}
              </p>
            ) : (
              <div className="table-responsive">
                <CardTable className="table table-sm small align-top" labels={[t.url, t.fetchedAt, t.sha256, t.parser]}>
                  <thead>
                    <tr>
                      <th scope="col">{t.url}</th>
                      <th scope="col">{t.fetchedAt}</th>
                      <th scope="col">{t.sha256}</th>
                      <th scope="col">{t.parser}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {doc.provenance.map((p) => (
                      <tr key={`${p.url}-${p.sha256}`} data-testid="provenance-row">
                        <td className="text-break">
                          {p.url}
                          {p.sample ? (
                            <span className="badge text-bg-secondary ms-1" data-testid="provenance-sample">
                              {app.docs.sample}
                              <span className="visually-hidden">: {t.sampleRecorded}</span>
                            </span>
                          ) : null}
                        </td>
                        <td className="text-nowrap">{formatDateTime(p.fetchedAt, locale)}</td>
                        <td>
                          <code className="text-break">{p.sha256}</code>
                        </td>
                        <td>
                          <code>{p.parser}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </CardTable>
              </div>
            )}
          </section>
          <p className="small text-body-secondary border-top pt-3" data-testid="reuse-notice">
            {reuse}
          </p>
        </div>
        <div className="col-lg-4 order-1 order-lg-2">
          <TriagePanel locale={locale} data={triage} result={actionData as TriageResult | undefined} />
          <section aria-labelledby="doc-details" className="card mb-3">
            <div className="card-body">
              <h2 id="doc-details" className="h5">
                {t.details}
              </h2>
              <dl className="row small mb-0 doc-details">
                <dt className="col-5">{t.source}</dt>
                <dd className="col-7">{(app.docs.sourceNames as Record<string, string>)[doc.source] ?? doc.source}</dd>
                <dt className="col-5">{t.sourceId}</dt>
                <dd className="col-7 text-break">{doc.sourceId}</dd>
                <dt className="col-5">{t.rank}</dt>
                <dd className="col-7">{doc.rank ?? "—"}</dd>
                <dt className="col-5">{t.department}</dt>
                <dd className="col-7">{doc.department ?? "—"}</dd>
                <dt className="col-5">{t.jurisdiction}</dt>
                <dd className="col-7">
                  {jurisdictionLabel(doc.jurisdiction, locale)}
                  {reasons?.jurisdiction[locale] ? (
                    <span className="d-block text-body-secondary">{reasons.jurisdiction[locale]}</span>
                  ) : null}
                </dd>
                <dt className="col-5">{t.kind}</dt>
                <dd className="col-7">
                  {kindLabel(doc.kind, locale)}
                  {reasons?.kind[locale] ? (
                    <span className="d-block text-body-secondary">{reasons.kind[locale]}</span>
                  ) : null}
                </dd>
                <dt className="col-5">{t.relevance}</dt>
                <dd className="col-7">
                  {doc.relevance ? app.docs.relevance[doc.relevance] : "—"}
                  {reasons?.relevance[locale] ? (
                    <span className="d-block text-body-secondary">{reasons.relevance[locale]}</span>
                  ) : null}
                </dd>
                <dt className="col-5">{t.publishedOn}</dt>
                <dd className="col-7">
                  {formatDay(doc.publishedOn, locale)}
                  {doc.replayedFrom ? (
                    <span className="d-block text-body-secondary" data-testid="sample-replayed">
                      <span className="badge text-bg-info me-1">{app.docs.sample}</span>
                      {fill(t.sampleReplayed, { day: formatDay(doc.replayedFrom, locale) })}
                    </span>
                  ) : null}
                </dd>
                <dt className="col-5">{t.effective}</dt>
                <dd className="col-7">
                  {doc.effectiveDates.length > 0
                    ? doc.effectiveDates.map((day) => formatDay(day, locale)).join(" · ")
                    : t.noEffective}
                </dd>
                {doc.section ? (
                  <>
                    <dt className="col-5">{t.section}</dt>
                    <dd className="col-7">{doc.section}</dd>
                  </>
                ) : null}
                {doc.epigraph ? (
                  <>
                    <dt className="col-5">{t.epigraph}</dt>
                    <dd className="col-7">{doc.epigraph}</dd>
                  </>
                ) : null}
                {otherLinks.length > 0 ? (
                  <>
                    <dt className="col-5">{t.links}</dt>
                    <dd className="col-7">
                      {otherLinks.map(([kind, href], index) => (
                        <span key={kind}>
                          {index > 0 ? " · " : null}
                          <a href={href} rel="noopener noreferrer">
                            {kind.toUpperCase()}
                          </a>
                        </span>
                      ))}
                    </dd>
                  </>
                ) : null}
              </dl>
            </div>
          </section>
          <section aria-labelledby="doc-classification" className="card mb-3">
            <div className="card-body">
              <h2 id="doc-classification" className="h5">
                {t.classification}
              </h2>
              <p className="small text-body-secondary">{t.classificationLead}</p>
              <h3 className="h6">{t.areas}</h3>
              {doc.areas.length === 0 ? <p className="small">{t.noAreas}</p> : null}
              <ul className="list-unstyled small" data-testid="areas">
                {doc.areas.map((area) => {
                  const added = addedBy.get(area.id);
                  const why = area.explanations.length > 0 ? area.explanations.map((e) => e[locale]) : area.reasons;
                  return (
                    <li key={area.id} className="mb-2" data-area={area.id}>
                      <span className="fw-semibold">{areaLabel(area.id, locale)}</span>{" "}
                      {added ? (
                        <span className="badge text-bg-secondary">{correctionMessages(locale).correctedBadge}</span>
                      ) : (
                        <span className="text-body-secondary">
                          ({fill(t.score, { score: formatScore(area.score, locale) })})
                        </span>
                      )}
                      <ul className="mb-0">
                        {added ? (
                          <AddedBy correction={added} locale={locale} />
                        ) : (
                          why.map((reason) => <li key={reason}>{reason}</li>)
                        )}
                      </ul>
                    </li>
                  );
                })}
              </ul>
              <RemovedAreas corrections={corrections} locale={locale} />
              {topics.length > 0 ? (
                <>
                  <h3 className="h6">{t.topics}</h3>
                  <ul className="list-unstyled small" data-testid="topics">
                    {topics.map((topic) => (
                      <li key={topic.id} className="mb-2">
                        <span className="fw-semibold">{topic.name}</span>
                        {topic.area ? (
                          <span className="text-body-secondary"> · {areaLabel(topic.area, locale)}</span>
                        ) : null}
                        <ul className="mb-0">
                          {topic.reasons.map((reason) => (
                            <li key={reason.es}>{reason[locale]}</li>
                          ))}
                        </ul>
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              {history.length > 1 ? (
                <details className="small mb-2" data-testid="label-history">
                  <summary>{plural(locale, t.history, history.length)}</summary>
                  <ol className="mb-0 mt-2" reversed>
                    {history.map((entry) => (
                      <li key={`${entry.at}-${entry.classifierVersion}`}>
                        {formatDateTime(entry.at, locale)} · {t.historyCauses[entry.cause]}:{" "}
                        {entry.areas.map((id) => areaLabel(id, locale)).join(", ")} ·{" "}
                        {entry.relevance ? app.docs.relevance[entry.relevance as "high" | "medium" | "low"] : "—"}
                      </li>
                    ))}
                  </ol>
                </details>
              ) : null}
              {doc.subjects.length > 0 ? (
                <>
                  <h3 className="h6">{t.subjects}</h3>
                  <p className="small">{doc.subjects.map((s) => s.label).join(" · ")}</p>
                </>
              ) : null}
              {doc.eurovoc.length > 0 ? (
                <>
                  <h3 className="h6">{t.eurovoc}</h3>
                  <p className="small mb-0">{doc.eurovoc.map((s) => s.label).join(" · ")}</p>
                </>
              ) : null}
            </div>
          </section>
          <CorrectionForm locale={locale} result={correctionResult} />
          <section aria-labelledby="doc-relations" className="card mb-3">
            <div className="card-body">
              <h2 id="doc-relations" className="h5">
                {t.relations}
              </h2>
              {doc.relations.length === 0 ? <p className="small mb-0">{t.noRelations}</p> : null}
              <ul className="list-unstyled small mb-0" data-testid="relations">
                {doc.relations.map((relation) => (
                  <li key={`${relation.type}-${relation.targetSourceId}`} className="mb-1">
                    <span className="fw-semibold">{relationLabel(relation.type)}</span>:{" "}
                    {relation.documentId ? (
                      <a href={`/app/documents/${relation.documentId}`}>{relation.targetSourceId}</a>
                    ) : loaderData.relatedLaws.includes(relation.targetSourceId) ? (
                      <span>
                        <a href={`/app/laws/${encodeURIComponent(relation.targetSourceId)}`}>
                          {relation.targetSourceId}
                        </a>{" "}
                        <span className="text-body-secondary">({t.consolidatedLaw})</span>
                      </span>
                    ) : (
                      <span>
                        {relation.targetSourceId} <span className="text-body-secondary">({t.notStored})</span>
                      </span>
                    )}
                    {relation.label ? <span className="d-block text-body-secondary">{relation.label}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          </section>
          <DocumentShare locale={locale} collab={collab} result={result} />
          {evidenceHref ? (
            <section aria-labelledby="doc-evidence" className="card mb-3" data-testid="document-evidence">
              <div className="card-body">
                <h2 id="doc-evidence" className="h5">
                  {t.evidence}
                </h2>
                <p className="small text-body-secondary">{t.evidenceLead}</p>
                <div className="d-flex flex-wrap gap-2">
                  <a className="btn btn-sm btn-outline-primary" href={evidenceHref}>
                    {t.evidenceOpen}
                  </a>
                  <a
                    className="btn btn-sm btn-outline-secondary"
                    href={`${evidenceHref.replace("/app/evidence?", "/app/evidence/export?")}&format=pdf`}
                    download
                  >
                    {t.evidencePdf}
                  </a>
                </div>
              </div>
            </section>
          ) : null}
          {readers ? (
            <section aria-labelledby="doc-readers" className="card mb-3">
              <div className="card-body">
                <h2 id="doc-readers" className="h5">
                  {t.readers}
                </h2>
                <p className="small text-body-secondary">{t.readersLead}</p>
                {readers.length === 0 ? <p className="small mb-0">{t.noReaders}</p> : null}
                <ul className="list-unstyled small mb-0" data-testid="readers">
                  {readers.map((reader) => (
                    <li key={reader.userId} className="mb-1">
                      <span className="fw-semibold">{reader.name}</span>{" "}
                      <span className="text-body-secondary">{reader.email}</span>
                      <span className="d-block">
                        {t.firstRead}: {formatDateTime(reader.firstReadAt, locale)} · {t.lastRead}:{" "}
                        {formatDateTime(reader.lastReadAt, locale)}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            </section>
          ) : null}
        </div>
      </div>
    </article>
  );
}
