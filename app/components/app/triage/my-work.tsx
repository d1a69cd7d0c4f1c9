/** "My work" on the home page: items and obligations assigned to the user or their groups, overdue ones marked. */
import type { Locale } from "../../../i18n/locales";
import { fill } from "../messages";
import { formatDueDay, OverdueBadge, triageMessages } from "./fields";

export interface WorkRow {
  kind: "triage" | "obligation";
  id: string;
  documentId: string;
  title: string;
  documentTitle: string;
  status: string;
  dueOn: string | null;
  overdue: boolean;
  viaGroup: string | null;
}

export function MyWork({ items, locale }: { items: WorkRow[]; locale: Locale }) {
  const t = triageMessages(locale);
  const w = t.myWork;
  const statusLabel = (item: WorkRow) =>
    item.kind === "triage"
      ? (t.statuses as Record<string, string>)[item.status]
      : (t.obligationStatuses as Record<string, string>)[item.status];
  return (
    <section className="card mt-3" aria-labelledby="home-work">
      <div className="card-body">
        <h2 id="home-work" className="h5">
          {w.heading}
        </h2>
        <p className="small text-body-secondary">{w.lead}</p>
        {items.length === 0 ? <p className="text-body-secondary mb-0">{w.empty}</p> : null}
        <ul className="list-unstyled mb-2" data-testid="my-work">
          {items.map((item) => (
            <li key={`${item.kind}-${item.id}`} className="border-bottom py-2" data-overdue={item.overdue || undefined}>
              <span className="badge text-bg-secondary me-1">{item.kind === "triage" ? w.triage : w.obligation}</span>
              <a href={`/app/documents/${item.documentId}${item.kind === "triage" ? "#triage" : "#obligations"}`}>
                {item.title}
              </a>
              {item.overdue ? <OverdueBadge locale={locale} /> : null}
              <span className="d-block small text-body-secondary">
                {statusLabel(item)} · {item.dueOn ? fill(w.due, { date: formatDueDay(item.dueOn, locale) }) : w.noDue}
                {item.viaGroup ? ` · ${fill(w.via, { group: item.viaGroup })}` : ""}
                {item.kind === "obligation" ? ` · ${item.documentTitle}` : ""}
              </span>
            </li>
          ))}
        </ul>
        <a href="/app/triage?assignee=me">{w.all}</a>
      </div>
    </section>
  );
}
