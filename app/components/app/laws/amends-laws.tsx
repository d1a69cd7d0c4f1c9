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

/** Whether a result is a law the platform can follow (a BOE act or an EU act of a consolidated kind). */
function followable(item: { source: string; sourceId: string; kind: string | null }): boolean {
  const boe = item.source === "boe" && LAW_ID.test(item.sourceId);
  const eu = item.source === "eurlex" && /^3\d{4}[A-Z]{1,2}\d{4}$/.test(item.sourceId);
  return (boe || eu) && item.kind !== null && CONSOLIDATED_KINDS.has(item.kind);
}

const followFormId = (id: string) => `follow-law-${id}`;

/**
 * "Follow this law" on a result. Result lists sit inside the search page's GET form, and a form
 * cannot hold another (the HTML parser drops the inner one, and hydration then fails), so the
 * button submits a form of its own by id: render <FollowLawForms> with the same items outside
 * any form. It works without JavaScript.
 */
export function FollowLawButton({
  locale,
  item,
  describedBy,
}: {
  locale: Locale;
  item: { id: string; source: string; sourceId: string; kind: string | null };
  /** The id of the result's title, which says which law the button follows. */
  describedBy: string;
}) {
  if (!followable(item)) return null;
  const t = lawsMessages(locale).search;
  return (
    <p className="mt-1 mb-0">
      <button
        type="submit"
        form={followFormId(item.id)}
        className="btn btn-sm btn-link px-0"
        aria-describedby={describedBy}
      >
        {t.follow}
      </button>
    </p>
  );
}

/** The forms <FollowLawButton> submits: one per followable item, placed outside any other form. */
export function FollowLawForms({
  items,
}: {
  items: ReadonlyArray<{ id: string; source: string; sourceId: string; kind: string | null }>;
}) {
  return (
    <>
      {items.filter(followable).map((item) => (
        <form key={item.id} id={followFormId(item.id)} method="post" action="/app/laws" hidden>
          <input type="hidden" name="intent" value="follow" />
          <input type="hidden" name="law" value={item.sourceId} />
        </form>
      ))}
    </>
  );
}
