import type { Locale } from "../../../i18n/locales";
import { FollowLawButton } from "../laws/amends-laws";
import { appMessages, fill } from "../messages";
import { DocumentBadges } from "./document-badges";
import { formatDay } from "./labels";
import { Snippet } from "./snippet";

export interface ResultListItem {
  id: string;
  source: string;
  sourceId: string;
  title: string;
  language: "es" | "en";
  publishedOn: string;
  kind: string | null;
  department: string | null;
  jurisdiction: string | null;
  relevance: "high" | "medium" | "low" | null;
  sample: boolean;
  snippet: string | null;
}

/** Documents as a list: title (a link to the document page), badges, date, department, snippet. */
export function ResultList({
  items,
  locale,
  headingLevel = 3,
  testId,
}: {
  items: ResultListItem[];
  locale: Locale;
  headingLevel?: 2 | 3;
  testId: string;
}) {
  const t = appMessages(locale).docs;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ol className="list-unstyled mb-0" data-testid={testId}>
      {items.map((item) => (
        <li key={item.id} className="border-bottom py-3" data-testid="result">
          <Heading className="h6 mb-1" lang={item.language} id={`${testId}-${item.id}`}>
            <a href={`/app/documents/${item.id}`}>{item.title || t.untitled}</a>
          </Heading>
          <p className="small text-body-secondary mb-1">
            {fill(t.search.published, { date: formatDay(item.publishedOn, locale) })} · {item.sourceId}
            {item.department ? ` · ${item.department}` : ""}
          </p>
          {item.snippet ? <Snippet snippet={item.snippet} lang={item.language} /> : null}
          <DocumentBadges document={item} locale={locale} />
          <FollowLawButton locale={locale} item={item} describedBy={`${testId}-${item.id}`} />
        </li>
      ))}
    </ol>
  );
}
