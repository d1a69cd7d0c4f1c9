import type { LawPageView } from "../../../.server/laws/page";
import type { Locale } from "../../../i18n/locales";
import { plural } from "../../../lib/plural";
import { fill } from "../messages";
import { blockTitle, type LawsMessages } from "./messages";

type PartsView = Pick<LawPageView, "law" | "date" | "isToday" | "parts" | "part">;

/** The law page at a part (a number or "all"), on the page's date, optionally at an anchor. */
export function lawPartHref(view: Pick<PartsView, "law" | "date" | "isToday">, part: number | "all", anchor?: string) {
  const query = new URLSearchParams();
  if (!view.isToday) query.set("date", view.date);
  query.set("part", String(part));
  return `/app/laws/${encodeURIComponent(view.law.id)}?${query.toString()}${anchor ? `#${anchor}` : ""}`;
}

/**
 * Where the reader is in a long law, and the way to the parts around it and to the whole text.
 * At the top of the text it is a navigation landmark; at its end, a plain line to the next part.
 */
export function LawParts({
  t,
  locale,
  view,
  end = false,
}: {
  t: LawsMessages;
  locale: Locale;
  view: PartsView;
  end?: boolean;
}) {
  const p = t.page.parts;
  const total = view.parts.length;
  if (total < 2) return null;
  if (view.part === null) {
    if (end) return null;
    return (
      <p className="law-parts law-no-print small d-flex flex-wrap gap-3 align-items-baseline">
        <span>{plural(locale, p.whole, total)}</span>
        <a href={lawPartHref(view, 1)}>{p.byParts}</a>
      </p>
    );
  }
  const current = view.parts[view.part - 1];
  const previous = view.parts[view.part - 2];
  const next = view.parts[view.part];
  if (end) {
    return next ? (
      <p className="law-parts law-no-print">
        <a href={lawPartHref(view, next.number)} rel="next">
          {fill(p.nextAfter, { number: next.number, first: next.first })}
        </a>
      </p>
    ) : null;
  }
  return (
    <nav aria-label={p.label} className="law-parts law-no-print small mb-3" data-testid="law-parts">
      <p className="mb-1">
        {fill(p.position, { number: view.part, total, first: current?.first ?? "", last: current?.last ?? "" })}
      </p>
      <ul className="list-inline mb-0">
        {previous ? (
          <li className="list-inline-item">
            <a href={lawPartHref(view, previous.number)} rel="prev">
              {p.previous}
            </a>
          </li>
        ) : null}
        {next ? (
          <li className="list-inline-item">
            <a href={lawPartHref(view, next.number)} rel="next">
              {p.next}
            </a>
          </li>
        ) : null}
        <li className="list-inline-item">
          <a href={lawPartHref(view, "all")}>{p.showWhole}</a>
        </li>
      </ul>
    </nav>
  );
}

/** Opened from a change's alert: the blocks the change concerns, each a link to its place. */
export function LawChangeNotice({ t, view }: { t: LawsMessages; view: LawPageView }) {
  if (!view.change || view.change.blocks.length === 0) return null;
  return (
    <p className="alert alert-info small" data-testid="law-change">
      {t.page.changeLead}{" "}
      {view.change.blocks.map((block, i) => (
        <span key={block.anchor}>
          {i > 0 ? ", " : null}
          <a
            href={
              view.part === null || block.part === view.part
                ? `#${block.anchor}`
                : lawPartHref(view, block.part, block.anchor)
            }
          >
            {blockTitle(block.title, t)}
          </a>
        </span>
      ))}
    </p>
  );
}
