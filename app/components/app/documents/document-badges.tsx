import type { Locale } from "../../../i18n/locales";
import { appMessages } from "../messages";
import { jurisdictionLabel, kindLabel } from "./labels";

export interface BadgeDocument {
  /** A registered source id (sources/registry.ts); unknown ids show as they are. */
  source: string;
  kind: string | null;
  jurisdiction: string | null;
  relevance: "high" | "medium" | "low" | null;
  sample: boolean;
}

const relevanceClass = { high: "text-bg-danger", medium: "text-bg-warning", low: "text-bg-secondary" } as const;

/** Source, relevance, kind, jurisdiction and the sample mark, as small labelled badges. */
export function DocumentBadges({ document, locale }: { document: BadgeDocument; locale: Locale }) {
  const t = appMessages(locale).docs;
  return (
    <div className="d-flex flex-wrap gap-1 align-items-center">
      <span className="badge text-bg-primary">
        {(t.sources as Record<string, string>)[document.source] ?? document.source}
      </span>
      {document.relevance ? (
        <span className={`badge ${relevanceClass[document.relevance]}`}>
          {t.search.relevance}: {t.relevance[document.relevance]}
        </span>
      ) : null}
      {document.kind ? (
        <span className="badge bg-body-tertiary text-body border">{kindLabel(document.kind, locale)}</span>
      ) : null}
      {document.jurisdiction ? (
        <span className="badge bg-body-tertiary text-body border">
          {jurisdictionLabel(document.jurisdiction, locale)}
        </span>
      ) : null}
      {document.sample ? (
        <span className="badge text-bg-info" title={t.sampleHint}>
          {t.sample}
        </span>
      ) : null}
    </div>
  );
}
