import { Form } from "react-router";
import type { Locale } from "../../../i18n/locales";
import { fill } from "../messages";
import { lawsMessages } from "./messages";

const AMENDING = new Set(["modifies", "repeals", "adds", "voids"]);
const LAW_ID = /^BOE-A-\d{4}-\d+$/;

/**
 * On a gazette document that amends laws: "this act amends law X: follow it" for each, a plain
 * POST to /app/laws (the whole law, for the member), so it works without JavaScript.
 */
export function AmendsLaws({
  locale,
  relations,
}: {
  locale: Locale;
  relations: ReadonlyArray<{ type: string; targetSourceId: string; label: string }>;
}) {
  const t = lawsMessages(locale).document;
  const seen = new Set<string>();
  const laws = relations.filter((r) => {
    if (!AMENDING.has(r.type) || !LAW_ID.test(r.targetSourceId) || seen.has(r.targetSourceId)) return false;
    seen.add(r.targetSourceId);
    return true;
  });
  if (laws.length === 0) return null;
  return (
    <ul className="list-unstyled small mb-3" data-testid="amends-laws">
      {laws.map((law) => (
        <li key={law.targetSourceId} className="d-flex flex-wrap gap-2 align-items-center mb-1">
          <span>{fill(t.amends, { law: law.label || law.targetSourceId })}</span>
          <Form method="post" action="/app/laws">
            <input type="hidden" name="intent" value="follow" />
            <input type="hidden" name="law" value={law.targetSourceId} />
            <button
              type="submit"
              className="btn btn-sm btn-outline-primary"
              aria-label={`${t.followIt}: ${law.label || law.targetSourceId}`}
            >
              {t.followIt}
            </button>
          </Form>
        </li>
      ))}
    </ul>
  );
}

/** Kinds whose acts the BOE consolidates (and Cellar, for EU regulations and directives). */
const CONSOLIDATED_KINDS = new Set([
  "constitution",
  "organic-law",
  "law",
  "decree-law",
  "legislative-decree",
  "royal-decree",
  "decree",
  "order",
  "regulation",
  "delegated-regulation",
  "implementing-regulation",
  "directive",
  "decision",
]);

/** A search result that is a law: "follow this law" (whole law, for the member), no JavaScript needed. */
export function FollowLawButton({
  locale,
  item,
}: {
  locale: Locale;
  item: { source: string; sourceId: string; kind: string | null; title: string };
}) {
  const boe = item.source === "boe" && LAW_ID.test(item.sourceId);
  const eu = item.source === "eurlex" && /^3\d{4}[A-Z]{1,2}\d{4}$/.test(item.sourceId);
  if (!(boe || eu) || !item.kind || !CONSOLIDATED_KINDS.has(item.kind)) return null;
  const t = lawsMessages(locale).search;
  return (
    // A plain form: result lists are also rendered outside the router (and it works without JavaScript).
    <form method="post" action="/app/laws" className="mt-1">
      <input type="hidden" name="intent" value="follow" />
      <input type="hidden" name="law" value={item.sourceId} />
      <button type="submit" className="btn btn-sm btn-link px-0" aria-label={`${t.follow}: ${item.title}`}>
        {t.follow}
      </button>
    </form>
  );
}
