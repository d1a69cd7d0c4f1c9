import { Form } from "react-router";
import type { Locale } from "../../../i18n/locales";
import { fill } from "../messages";
import { lawsMessages } from "./messages";

const LAW_ID = /^BOE-A-\d{4}-\d+$/;
/** An EU act's CELEX number (sector 3: legislation), followable as a law. */
const EU_ACT = /^3\d{4}[A-Z]{1,2}\d{4}$/;

/** A change line as the document page receives it (documents/changes.ts DocumentChange). */
export interface DocumentChangeLine {
  lawId: string;
  verb: "modifies" | "adds" | "repeals" | "removes" | "suspends" | "voids" | "corrects";
  line: string;
  text: string;
  lawTitle: string | null;
  blockIds: string[];
  lawPath: string | null;
  consolidated: Array<{ blockId: string; title: string; comparePath: string }>;
  followed: boolean;
  /** EU acts: the amended act as cited in each language (BOE lines keep the analysis' Spanish). */
  texts?: { es: string; en: string } | undefined;
}

/**
 * "What this act changes" on a gazette document: each line of the BOE's analysis that changes a
 * norm ("Modifica el art. 13 de la Ley 38/2003…"), with the law page at that article when the
 * platform holds the law's text, the comparison once the consolidated text holds this act's
 * wording, and "follow this law" (a plain POST to /app/laws, so it works without JavaScript).
 */
export function DocumentChanges({ locale, changes }: { locale: Locale; changes: readonly DocumentChangeLine[] }) {
  if (changes.length === 0) return null;
  const t = lawsMessages(locale).document;
  const shownFollow = new Set<string>();
  return (
    <section aria-labelledby="doc-changes" className="card mb-3">
      <div className="card-body">
        <h2 id="doc-changes" className="h5">
          {t.heading}
        </h2>
        <p className="small text-body-secondary mb-2">{t.lead}</p>
        <ul className="list-unstyled mb-0" data-testid="document-changes">
          {changes.map((change) => {
            // In a sentence: the title without its closing full stop ("Ver Ley 39/2015, … Públicas en ese punto").
            const name = (change.lawTitle ?? change.lawId).replace(/\.\s*$/, "");
            // One follow button per law, on its first line.
            const followHere =
              !change.followed &&
              (LAW_ID.test(change.lawId) || EU_ACT.test(change.lawId)) &&
              !shownFollow.has(change.lawId);
            if (followHere) shownFollow.add(change.lawId);
            return (
              <li key={`${change.lawId} ${change.line}`} className="mb-3" data-law={change.lawId}>
                <p className="mb-1">
                  {locale === "es" ? (
                    <span>{change.line}</span>
                  ) : change.texts ? (
                    <>
                      <span className="fw-semibold">{t.verbs[change.verb]}</span> <span>{change.texts.en}</span>
                    </>
                  ) : (
                    <>
                      <span className="fw-semibold">{t.verbs[change.verb]}</span> <span lang="es">{change.text}</span>
                    </>
                  )}{" "}
                  <span className="text-body-secondary small">({change.lawId})</span>
                </p>
                <div className="d-flex flex-wrap gap-2 align-items-center small">
                  {change.lawPath ? <a href={change.lawPath}>{fill(t.atArticleOf, { law: name })}</a> : null}
                  {change.consolidated.map((block) => (
                    <a key={block.blockId} href={block.comparePath}>
                      {fill(t.compare, { block: block.title })}
                    </a>
                  ))}
                  {change.lawPath && change.consolidated.length === 0 && change.verb !== "repeals" ? (
                    <span className="badge text-bg-warning">{t.pending}</span>
                  ) : null}
                  {change.followed ? (
                    <span className="badge text-bg-success">{t.followed}</span>
                  ) : followHere ? (
                    <Form method="post" action="/app/laws">
                      <input type="hidden" name="intent" value="follow" />
                      <input type="hidden" name="law" value={change.lawId} />
                      <button
                        type="submit"
                        className="btn btn-sm btn-outline-primary"
                        aria-label={`${t.followIt}: ${name}`}
                      >
                        {t.followIt}
                      </button>
                    </Form>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
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
