import { useEffect, useRef } from "react";
import { Form } from "react-router";
import type { TocEntry } from "../../../.server/laws/page";
import type { Locale } from "../../../i18n/locales";
import { plural } from "../../../lib/plural";
import { fill } from "../messages";
import { blockTitle, formatLawDate, type LawsMessages } from "./messages";

/** An entry of the contents (the law page's, whose `part` says which part of the text holds it). */
export type TocBlock = Omit<TocEntry, "part"> & { part?: number };

export interface FollowItem {
  id: string;
  blockIds: string[];
  groupName: string | null;
  /** A group's follow; null or absent for the member's own. */
  groupId?: string | null;
  emailMode?: string;
}

export interface FollowResult {
  ok: boolean;
  failure?: string;
  /** FOLLOWS_MAX_PER_ORGANIZATION, for the message when it is reached. */
  limit?: number;
  what?: { whole: boolean; titles: string[] };
  unfollowed?: boolean;
  updated?: boolean;
}

/** Why a follow was refused, in the member's language (undefined when it was not). */
export function followFailureMessage(t: LawsMessages, result: FollowResult | undefined): string | undefined {
  const f = t.page.follow;
  switch (result?.ok === false ? result.failure : undefined) {
    case "noBlocks":
    case "badBlocks":
      return f.noBlocks;
    case "badGroup":
      return f.badGroup;
    case "unknownLaw":
      return f.unknownLaw;
    case "tooManyFollows":
      return fill(f.tooManyFollows, { limit: result?.limit ?? "" });
    case "lawNotFound":
    case "badLawId":
      return t.list.idHint;
    default:
      return undefined;
  }
}

/** The outcome of a follow or unfollow form, in the member's language. */
export function FollowMessage({ t, result }: { t: LawsMessages; result: FollowResult | undefined }) {
  if (!result) return null;
  const f = t.page.follow;
  // In a sentence: "sigues toda la ley", not "sigues Toda la ley".
  const what = result.what?.whole ? f.wholeInSentence : (result.what?.titles ?? []).join(", ");
  if (result.ok) {
    return (
      <div className="alert alert-success" role="status">
        {fill(result.unfollowed ? f.unfollowed : result.updated ? f.updated : f.done, { what })}
      </div>
    );
  }
  const failure = followFailureMessage(t, result);
  return failure ? (
    <div className="alert alert-danger" role="alert">
      {failure}
    </div>
  ) : null;
}

/** The member's follows of one law, each with its button to stop following. */
export function FollowList({
  t,
  follows,
  titles = new Map(),
}: {
  t: LawsMessages;
  follows: FollowItem[];
  titles?: Map<string, string>;
}) {
  const f = t.page.follow;
  if (follows.length === 0) return null;
  return (
    <section aria-labelledby="law-follows" className="mb-3">
      <h2 id="law-follows" className="h6">
        {f.following}
      </h2>
      <ul className="list-unstyled small">
        {follows.map((follow) => {
          const what =
            follow.blockIds.length === 0
              ? t.list.wholeLaw
              : follow.blockIds.map((id) => titles.get(id) ?? id).join(", ");
          return (
            <li key={follow.id} className="d-flex gap-2 align-items-start mb-1">
              <span className="me-auto">
                {what}
                {follow.groupName ? ` · ${fill(t.list.group, { name: follow.groupName })}` : ` · ${t.list.me}`}
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="unfollow" />
                <input type="hidden" name="id" value={follow.id} />
                <button
                  type="submit"
                  className="btn btn-sm btn-outline-secondary"
                  aria-label={`${f.unfollow}: ${what}`}
                >
                  {f.unfollow}
                </button>
              </Form>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * The law's table of contents inside the follow form: each entry links to its block and has a
 * checkbox to follow it (a title or chapter covers what it heads); then whole law or ticked
 * parts, for me or a group, mail now or in-app only. Works without JavaScript.
 */
export function LawFollowForm({
  t,
  lawId,
  blocks,
  follows,
  groups,
  locale,
  hrefOf = (block) => `#${block.anchor}`,
}: {
  t: LawsMessages;
  lawId: string;
  blocks: TocBlock[];
  /** Where an entry of the contents leads (its anchor, or the part that holds it). */
  hrefOf?: (block: TocBlock) => string;
  follows: FollowItem[];
  groups: Array<{ id: string; name: string }>;
  locale: Locale;
}) {
  const p = t.page;
  const f = p.follow;
  const titles = new Map(blocks.map((b) => [b.blockId, blockTitle(b.title, locale)]));
  // The member's own follow of this law, if any: the form then changes it (one follow per audience).
  const mine = follows.find((follow) => !follow.groupId && !follow.groupName);
  const ticked = new Set(mine?.blockIds ?? []);
  const side = useRef<HTMLDetailsElement>(null);
  // Open beside the text on a wide screen (the layout's lg breakpoint); folded on a phone.
  useEffect(() => {
    if (side.current && window.matchMedia("(min-width: 992px)").matches) side.current.open = true;
  }, []);
  return (
    <>
      <FollowList t={t} follows={follows} titles={titles} />
      {/* Folded on a phone (an index of 150 entries came before the text); open beside the text on a wide screen. */}
      <details className="law-side-details" ref={side}>
        <summary className="btn btn-outline-secondary btn-sm mb-2">
          {plural(locale, f.sideSummary, blocks.length)}
        </summary>
        <Form method="post" aria-labelledby="law-follow-heading" className="card card-body mb-3">
          <input type="hidden" name="intent" value="follow" />
          <input type="hidden" name="law" value={lawId} />
          <h2 id="law-follow-heading" className="h5">
            {mine ? f.changeHeading : f.heading}
          </h2>
          <p className="small text-body-secondary">{mine ? f.changeLead : f.lead}</p>
          <fieldset className="mb-2">
            <legend className="form-label fs-6">{f.scope}</legend>
            <div className="form-check">
              <input
                className="form-check-input"
                type="radio"
                name="scope"
                value="law"
                id="scope-law"
                defaultChecked={ticked.size === 0}
              />
              <label className="form-check-label" htmlFor="scope-law">
                {f.whole}
              </label>
            </div>
            <div className="form-check">
              <input
                className="form-check-input"
                type="radio"
                name="scope"
                value="blocks"
                id="scope-blocks"
                defaultChecked={ticked.size > 0}
              />
              <label className="form-check-label" htmlFor="scope-blocks">
                {f.chosen}
              </label>
            </div>
          </fieldset>
          <div className="mb-2">
            <label htmlFor="follow-audience" className="form-label">
              {f.audience}
            </label>
            <select id="follow-audience" name="audience" className="form-select">
              <option value="me">{f.me}</option>
              {groups.map((g) => (
                <option key={g.id} value={`group:${g.id}`}>
                  {fill(f.group, { name: g.name })}
                </option>
              ))}
            </select>
          </div>
          <div className="mb-3">
            <label htmlFor="follow-mail" className="form-label">
              {f.mail}
            </label>
            <select
              id="follow-mail"
              name="mail"
              className="form-select"
              defaultValue={mine?.emailMode === "off" || mine?.emailMode === "digest" ? mine.emailMode : "immediate"}
            >
              <option value="immediate">{f.mailNow}</option>
              <option value="digest">{f.mailDigest}</option>
              <option value="off">{f.mailOff}</option>
            </select>
          </div>
          <button type="submit" className="btn btn-primary mb-3">
            {mine ? f.save : f.submit}
          </button>
          <nav aria-labelledby="law-toc-heading">
            <h2 id="law-toc-heading" className="h6">
              {p.toc}
            </h2>
            <ul className="list-unstyled law-toc small mb-0">
              {blocks.map((block) => (
                <li
                  key={block.blockId}
                  className={`d-flex gap-2 align-items-start${block.heading ? " law-toc-heading" : ""}`}
                  style={{ paddingLeft: `${Math.max(0, Math.min(block.depth, 6) - 1) * 0.5}rem` }}
                >
                  <input
                    className="form-check-input flex-shrink-0 mt-1"
                    type="checkbox"
                    name="block"
                    value={block.blockId}
                    id={`follow-${block.anchor}`}
                    defaultChecked={ticked.has(block.blockId)}
                    aria-label={fill(f.pick, { title: blockTitle(block.title, locale) })}
                  />
                  <TocLink block={block} href={hrefOf(block)} t={t} locale={locale} />
                </li>
              ))}
            </ul>
          </nav>
        </Form>
      </details>
    </>
  );
}

function TocLink({ block, href, t, locale }: { block: TocBlock; href: string; t: LawsMessages; locale: Locale }) {
  const p = t.page;
  return (
    <span>
      <a href={href}>{blockTitle(block.title, locale)}</a>
      <span className="d-block text-body-secondary">
        {block.expiresOn
          ? fill(p.repealed, { date: formatLawDate(block.expiresOn, locale) })
          : fill(p.tocLast, { date: formatLawDate(block.latestDate, locale) })}
      </span>
    </span>
  );
}
