import type { LawPageView } from "../../../.server/laws/page";
import type { Locale } from "../../../i18n/locales";
import { CardTable } from "../card-table";
import { fill } from "../messages";
import { triageMessages } from "../triage/fields";
import { blockTitle, formatLawDate, type LawsMessages } from "./messages";

/** The text in force on the page's date, block by block, each with its versions and a comparison link. */
export function LawText({ t, view, locale }: { t: LawsMessages; view: LawPageView; locale: Locale }) {
  const p = t.page;
  const lo = triageMessages(locale).lawObligation;
  const lawPath = `/app/laws/${encodeURIComponent(view.law.id)}`;
  return (
    <div className="law-text">
      {view.blocks.map((block) => {
        const Heading = block.heading ? "h2" : "h3";
        return (
          // Not a region landmark: a law repeats headings ("CAPÍTULO I" under each title).
          <div key={block.blockId} id={block.anchor} className="law-block mb-4">
            <Heading id={`${block.anchor}-t`} className={block.heading ? "h5 mt-4" : "h6 fw-semibold"}>
              {blockTitle(block.title, locale)}
            </Heading>
            {block.renumberedFrom ? (
              <p className="small text-body-secondary">
                {fill(p.renumbered, { from: block.renumberedFrom.replace(/^art_/, "Article ") })}
              </p>
            ) : null}
            {block.paragraphs === null ? (
              <p className="text-body-secondary fst-italic">{p.notInForce}</p>
            ) : block.heading ? null : (
              block.paragraphs.map((paragraph, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a wording's paragraphs never reorder
                <p key={i}>{paragraph}</p>
              ))
            )}
            {block.paragraphs !== null && !block.heading ? (
              // An obligation anchored to this article at the version shown (issue 39).
              <p className="law-no-print mb-2">
                <a
                  className="btn btn-outline-secondary btn-sm"
                  data-testid="record-obligation"
                  href={`${lawPath}/obligations/new?${new URLSearchParams({
                    block: block.blockId,
                    version: block.versions.find((v) => v.current)?.normId ?? "",
                  })}`}
                >
                  {lo.action}
                  <span className="visually-hidden">
                    {" "}
                    {fill(lo.actionOn, { article: blockTitle(block.title, locale) })}
                  </span>
                </a>
              </p>
            ) : null}
            {block.pending.map((v) => (
              <p key={v.normId} className="alert alert-info py-1 px-2 small" data-testid="pending-version">
                {fill(p.laterVersion, {
                  published: formatLawDate(v.publishedOn, locale),
                  date: formatLawDate(v.inForceOn, locale),
                })}
              </p>
            ))}
            {block.versions.length > 1 || block.versions.some((v) => v.future) ? (
              <details className="small law-no-print">
                <summary>{fill(p.versions, { count: block.versions.length })}</summary>
                <div className="table-responsive">
                  <CardTable
                    labels={[
                      p.versionColumns.norm,
                      p.versionColumns.published,
                      p.versionColumns.inForce,
                      p.versionColumns.status,
                    ]}
                    className="table table-sm mt-2"
                  >
                    <caption className="visually-hidden">{`${blockTitle(block.title, locale)}: ${fill(p.versions, { count: block.versions.length })}`}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{p.versionColumns.norm}</th>
                        <th scope="col">{p.versionColumns.published}</th>
                        <th scope="col">{p.versionColumns.inForce}</th>
                        <th scope="col">{p.versionColumns.status}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {block.versions.map((v, i) => (
                        <tr key={`${v.normId}-${v.publishedOn}`}>
                          <td>
                            <a href={v.href} {...(v.internal ? {} : { rel: "noopener noreferrer" })}>
                              {v.normId}
                            </a>
                          </td>
                          <td>{formatLawDate(v.publishedOn, locale)}</td>
                          <td>{formatLawDate(v.inForceOn, locale)}</td>
                          <td>
                            {v.current ? <span className="badge text-bg-success me-1">{p.current}</span> : null}
                            {v.future ? (
                              <span className="badge text-bg-warning">
                                {fill(p.future, { date: formatLawDate(v.inForceOn, locale) })}
                              </span>
                            ) : null}
                            {i > 0 ? (
                              <a
                                className="d-block"
                                href={`${lawPath}/compare?${new URLSearchParams({ block: block.blockId, from: block.versions[i - 1]?.normId ?? "", to: v.normId })}`}
                              >
                                {p.compareThis}
                              </a>
                            ) : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </CardTable>
                </div>
              </details>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
