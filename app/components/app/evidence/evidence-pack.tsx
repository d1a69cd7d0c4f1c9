import type { ReactNode } from "react";
import type { DocumentEvidence, EvidencePack } from "../../../.server/evidence/pack";
import type { Locale } from "../../../i18n/locales";
import { plural } from "../../../lib/plural";
import { AuditAction, auditObjectText } from "../audit-action";
import { CardTable } from "../card-table";
import { formatDay } from "../documents/labels";
import { fill, formatDateTime } from "../messages";
import { evidenceMessages } from "./messages";

type Names = Record<string, string>;

/** The pack as a printable page: per document, in order, alerts, reads, decisions, obligations, notes; then the audit excerpt. */
export function EvidencePackView({ locale, pack, names }: { locale: Locale; pack: EvidencePack; names: Names }) {
  const m = evidenceMessages(locale);
  const t = m.pack;
  const v = pack.audit.verification;
  return (
    <div data-testid="evidence-pack">
      <p className="small text-body-secondary">
        {fill(t.generated, { date: formatDateTime(pack.generatedAt, locale), email: pack.generatedBy.email })}
        {pack.scope.from && pack.scope.to ? (
          <>
            {" "}
            {fill(t.scopePeriod, { from: formatDay(pack.scope.from, locale), to: formatDay(pack.scope.to, locale) })}
          </>
        ) : null}
      </p>
      {pack.truncated ? <p className="alert alert-warning">{fill(t.truncated, { max: 200 })}</p> : null}
      {pack.documents.length === 0 && pack.lawObligations.length === 0 ? <p>{t.noDocuments}</p> : null}
      {pack.documents.map((document) => (
        <DocumentSection key={document.id} locale={locale} document={document} names={names} />
      ))}
      {pack.lawObligations.length > 0 ? <LawObligationsSection locale={locale} pack={pack} /> : null}
      <section aria-labelledby="evidence-audit" className="evidence-section">
        <h2 id="evidence-audit" className="h4">
          {t.sections.audit}
        </h2>
        <p
          className={`alert ${v.valid ? "alert-success" : "alert-danger"} evidence-verification`}
          data-testid="chain-verification"
        >
          <span aria-hidden="true">{v.valid ? "✔ " : "✖ "}</span>
          {v.valid
            ? plural(locale, t.chainValid, v.events)
            : fill(t.chainBroken, { id: v.firstBroken ?? t.none, reason: v.reason ?? t.none })}
        </p>
        {pack.audit.events.length === 0 ? (
          <p>{t.empty.audit}</p>
        ) : (
          <Table
            caption={t.sections.audit}
            head={[t.columns.seq, t.columns.at, t.columns.actor, t.columns.action, t.columns.object, t.columns.hash]}
            testId="evidence-audit-rows"
          >
            {pack.audit.events.map((event) => (
              <tr key={event.id}>
                <td>{event.seq}</td>
                <td>{formatDateTime(event.at, locale)}</td>
                <td>{event.actor?.email || t.none}</td>
                <td>
                  <AuditAction action={event.action} locale={locale} />
                </td>
                <td className="text-break">{auditObjectText(event.object, locale, t.none)}</td>
                <td>
                  <code className="evidence-hash">{event.hash.slice(0, 16)}…</code>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </div>
  );
}

/** Obligations anchored to a law's article (issue 39): each with its anchor and its reviews, oldest first. */
function LawObligationsSection({ locale, pack }: { locale: Locale; pack: EvidencePack }) {
  const t = evidenceMessages(locale).pack;
  const l = t.lawObligations;
  return (
    <section
      aria-labelledby="evidence-law-obligations"
      className="evidence-section"
      data-testid="evidence-law-obligations"
    >
      <h2 id="evidence-law-obligations" className="h4">
        {l.heading}
      </h2>
      {pack.lawObligations.map((entry) => (
        <div key={entry.obligation.id} className="mb-3">
          <h3 className="h6 mb-1">{entry.obligation.title}</h3>
          <p className="small mb-1">
            {fill(l.anchor, {
              article: entry.anchor.blockTitle,
              law: entry.anchor.lawTitle,
              norm: entry.anchor.version.normId,
            })}
            {" · "}
            {t.obligationStatus[entry.obligation.status as keyof typeof t.obligationStatus] ?? entry.obligation.status}
          </p>
          {entry.reviews.length === 0 ? (
            <p className="small">{l.none}</p>
          ) : (
            <Table
              caption={`${l.review}: ${entry.obligation.title}`}
              head={[l.from, l.to, l.decision, l.who, t.columns.at]}
            >
              {entry.reviews.map((review) => (
                <tr key={review.id}>
                  <td>{`${review.from.normId} (${formatDay(review.from.publishedOn, locale)})`}</td>
                  <td>{`${review.to.normId} (${formatDay(review.to.publishedOn, locale)})`}</td>
                  <td>
                    {review.decision
                      ? (l.decisions[review.decision as keyof typeof l.decisions] ?? review.decision)
                      : l.open}
                    {review.newText ? (
                      <blockquote className="mb-0 evidence-excerpt">{review.newText}</blockquote>
                    ) : null}
                    {review.note ? <span className="d-block">{review.note}</span> : null}
                  </td>
                  <td>{review.decidedBy?.name ?? t.none}</td>
                  <td>
                    {review.decidedAt
                      ? formatDateTime(review.decidedAt, locale)
                      : formatDateTime(review.openedAt, locale)}
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </div>
      ))}
    </section>
  );
}

function Table({
  caption,
  head,
  children,
  testId,
}: {
  caption: string;
  head: string[];
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="table-responsive">
      <CardTable labels={head} className="table table-sm small align-top" data-testid={testId}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {head.map((label) => (
              <th scope="col" key={label}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </CardTable>
    </div>
  );
}

function DocumentSection({ locale, document, names }: { locale: Locale; document: DocumentEvidence; names: Names }) {
  const m = evidenceMessages(locale);
  const t = m.pack;
  /** A triage value as a person reads it: a status, an impact, a day, a member's or group's name. */
  const statusLabel = (value: unknown): string => {
    if (value === null || value === undefined || value === "") return t.none;
    if (typeof value !== "string") return JSON.stringify(value);
    if (value in m.overview.status) return m.overview.status[value as keyof typeof m.overview.status];
    if (value in t.impact) return t.impact[value as keyof typeof t.impact];
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(value, locale);
    return names[value] ?? value;
  };
  const fieldLabel = (field: string) => t.fields[field as keyof typeof t.fields] ?? field;
  const headingId = `evidence-doc-${document.id}`;
  const sub = (key: keyof typeof t.sections) => `${headingId}-${key}`;
  return (
    <article aria-labelledby={headingId} className="evidence-document mb-5" data-testid="evidence-document">
      <h2 id={headingId} className="h4">
        {document.title}
      </h2>
      <p className="small text-body-secondary">
        {document.sourceId} · {fill(t.published, { date: formatDay(document.publishedOn, locale) })} ·{" "}
        <a href={document.officialUrl} rel="noreferrer">
          {t.official}
        </a>
        {document.triage ? <> · {fill(t.triageNow, { status: statusLabel(document.triage.status) })}</> : null}
      </p>

      <section aria-labelledby={sub("alerts")} className="evidence-section" data-testid="evidence-alerts">
        <h3 id={sub("alerts")} className="h5">
          {t.sections.alerts}
        </h3>
        {document.alerts.length === 0 ? (
          <p>{t.empty.alerts}</p>
        ) : (
          <Table
            caption={t.sections.alerts}
            head={[
              t.columns.channel,
              t.columns.recipient,
              t.columns.via,
              t.columns.status,
              t.columns.queued,
              t.columns.sent,
              t.columns.readAt,
            ]}
          >
            {document.alerts.map((alert) => (
              <tr key={`${alert.channel}-${alert.recipient?.id ?? alert.via}-${alert.queuedAt}`}>
                <td>{t.channels[alert.channel as keyof typeof t.channels] ?? alert.channel}</td>
                <td>{alert.recipient ? `${alert.recipient.name} <${alert.recipient.email}>` : t.none}</td>
                <td>{alert.via || t.none}</td>
                <td>{t.deliveryStatus[alert.status as keyof typeof t.deliveryStatus] ?? alert.status}</td>
                <td>{formatDateTime(alert.queuedAt, locale)}</td>
                <td>{formatDateTime(alert.sentAt, locale)}</td>
                <td>{formatDateTime(alert.readAt, locale)}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      <section aria-labelledby={sub("reads")} className="evidence-section" data-testid="evidence-reads">
        <h3 id={sub("reads")} className="h5">
          {t.sections.reads}
        </h3>
        {document.reads.length === 0 ? (
          <p>{t.empty.reads}</p>
        ) : (
          <Table caption={t.sections.reads} head={[t.columns.reader, t.columns.firstRead, t.columns.lastRead]}>
            {document.reads.map((read) => (
              <tr key={read.reader.id}>
                <td>{`${read.reader.name} <${read.reader.email}>`}</td>
                <td>{formatDateTime(read.firstReadAt, locale)}</td>
                <td>{formatDateTime(read.lastReadAt, locale)}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      <section aria-labelledby={sub("decisions")} className="evidence-section" data-testid="evidence-decisions">
        <h3 id={sub("decisions")} className="h5">
          {t.sections.decisions}
        </h3>
        {document.decisions.length === 0 ? (
          <p>{t.empty.decisions}</p>
        ) : (
          <Table
            caption={t.sections.decisions}
            head={[t.columns.at, t.columns.author, t.columns.changes, t.columns.note]}
          >
            {document.decisions.map((decision) => (
              <tr key={`${decision.at}-${decision.actor.id}`}>
                <td>{formatDateTime(decision.at, locale)}</td>
                <td>{decision.actor.id === "system" ? t.systemActor : decision.actor.name}</td>
                <td>
                  <ul className="list-unstyled mb-0">
                    {Object.entries(decision.changes).map(([field, change]) => (
                      <li key={field}>
                        <span className="fw-semibold">{fieldLabel(field)}</span>: {statusLabel(change.from)} →{" "}
                        {statusLabel(change.to)}
                      </li>
                    ))}
                  </ul>
                </td>
                {/* "alert" marks the platform's own first entry: its author already says so. */}
                <td>{decision.note && decision.note !== "alert" ? decision.note : t.none}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      <section aria-labelledby={sub("obligations")} className="evidence-section" data-testid="evidence-obligations">
        <h3 id={sub("obligations")} className="h5">
          {t.sections.obligations}
        </h3>
        {document.obligations.length === 0 ? (
          <p>{t.empty.obligations}</p>
        ) : (
          <Table
            caption={t.sections.obligations}
            head={[
              t.columns.obligation,
              t.columns.anchor,
              t.columns.owner,
              t.columns.due,
              t.columns.status,
              t.columns.reference,
              t.columns.at,
            ]}
          >
            {document.obligations.map((obligation) => (
              <tr key={obligation.id}>
                <td>
                  <span className="fw-semibold">{obligation.title}</span>
                  {obligation.excerpt ? (
                    <blockquote className="mb-0 evidence-excerpt">{obligation.excerpt}</blockquote>
                  ) : null}
                </td>
                <td>{obligation.anchor || t.none}</td>
                <td>{statusLabel(obligation.ownerUserId ?? obligation.ownerTeamId)}</td>
                <td>{formatDay(obligation.dueOn, locale)}</td>
                <td>{t.obligationStatus[obligation.status as keyof typeof t.obligationStatus] ?? obligation.status}</td>
                <td>{obligation.reference || t.none}</td>
                <td>{formatDateTime(obligation.createdAt, locale)}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>

      <section aria-labelledby={sub("notes")} className="evidence-section" data-testid="evidence-notes">
        <h3 id={sub("notes")} className="h5">
          {t.sections.notes}
        </h3>
        {document.notes.length === 0 ? (
          <p>{t.empty.notes}</p>
        ) : (
          <Table
            caption={t.sections.notes}
            head={[t.columns.at, t.columns.author, t.columns.visibility, t.columns.body]}
          >
            {document.notes.map((note) => (
              <tr key={note.id}>
                <td>{formatDateTime(note.createdAt, locale)}</td>
                <td>{note.author.name}</td>
                <td>
                  {t.visibility[note.visibility as keyof typeof t.visibility] ?? note.visibility}
                  {note.groupId ? ` (${names[note.groupId] ?? note.groupId})` : ""}
                </td>
                <td className="evidence-note">{note.body}</td>
              </tr>
            ))}
          </Table>
        )}
      </section>
    </article>
  );
}
