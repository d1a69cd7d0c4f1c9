/**
 * Why an alert was sent (issue 39, decision 0148): what the matcher knew when it matched, kept as
 * data with the match (alert_matches.reasons) and in every delivery's payload, so that a retry, the
 * in-app list and the day's digest say the same thing. Words are chosen at delivery, in the
 * recipient's language: the classifier's evidence is stored in both languages.
 */
import { z } from "zod";
import { channels as en } from "../../i18n/en/channels.ts";
import { channels as es } from "../../i18n/es/channels.ts";
import { fillTemplate } from "../../lib/fill-template.ts";
import { areas as areaList, jurisdictions, kinds, relevances } from "../../lib/taxonomy.ts";
import type { Lang, MatchableDocument, MatchHits } from "./profiles.ts";

const bilingual = z.object({ es: z.string(), en: z.string() });

export const matchWhy = z.object({
  /** "profile": an alert profile's filters; "follow": a followed law; "webhook": an API subscription's filters. */
  via: z.enum(["profile", "follow", "webhook"]),
  /** The profile or follow that matched (none for a webhook: the subscription is the receiver). */
  profile: z.object({ id: z.string(), name: z.string(), group: z.boolean() }).optional(),
  /** The filter's areas the document carries, each with the classifier's evidence. */
  areas: z.array(z.object({ id: z.string(), evidence: z.array(bilingual) })).default([]),
  /** The keywords and query words found in the document, as the profile wrote them. */
  terms: z.array(z.string()).default([]),
  /** The other filters the profile sets, with the document's value. */
  filters: z
    .object({
      jurisdiction: z.string().optional(),
      kind: z.string().optional(),
      source: z.string().optional(),
      relevance: z.string().optional(),
    })
    .default({}),
  /** A follow: the law, how it changed, and the followed articles that changed (or were named by the act). */
  law: z
    .object({
      id: z.string(),
      title: z.string(),
      change: z.enum(["consolidated", "announced"]),
      articles: z.array(z.object({ id: z.string(), title: z.string() })),
      act: z.string().optional(),
    })
    .optional(),
});
export type MatchWhy = z.infer<typeof matchWhy>;

/** The area labels as matching reads them: the stored label carries the classifier's bilingual explanations. */
type AreaLabelish = { id: string; reasons?: unknown; explanations?: unknown };

/** The reason organisations' corrections give an added area (documents/corrections.ts). */
const correctedReason = "corrected by the organisation";

function evidenceOf(label: AreaLabelish | undefined): { es: string; en: string }[] {
  if (!label) return [];
  const explained = Array.isArray(label.explanations)
    ? label.explanations.flatMap((e) => {
        const parsed = bilingual.safeParse(e);
        return parsed.success ? [{ es: parsed.data.es, en: parsed.data.en }] : [];
      })
    : [];
  if (explained.length) return explained;
  const reasons = Array.isArray(label.reasons) ? label.reasons.filter((r): r is string => typeof r === "string") : [];
  return reasons.map((reason) =>
    reason === correctedReason ? { es: es.why.corrected, en: en.why.corrected } : { es: reason, en: reason },
  );
}

export interface WhyFilters {
  jurisdictions: string[];
  kinds: string[];
  sources: string[];
  minRelevance: number;
}

/** The why of a document matched by a profile's (or a webhook's) filters. */
export function documentWhy(
  via: "profile" | "webhook",
  filters: WhyFilters,
  hits: MatchHits,
  document: MatchableDocument,
  profile?: { id: string; name: string; groupId: string | null },
): MatchWhy {
  const labels = new Map((document.areas as AreaLabelish[]).map((area) => [area.id, area]));
  return {
    via,
    ...(profile ? { profile: { id: profile.id, name: profile.name, group: Boolean(profile.groupId) } } : {}),
    areas: hits.areas.map((id) => ({ id, evidence: evidenceOf(labels.get(id)).slice(0, 3) })),
    terms: hits.terms,
    filters: {
      ...(filters.jurisdictions.length ? { jurisdiction: document.jurisdiction } : {}),
      ...(filters.kinds.length ? { kind: document.kind } : {}),
      ...(filters.sources.length ? { source: document.source } : {}),
      ...(filters.minRelevance > 0 ? { relevance: document.relevance } : {}),
    },
  };
}

/** The why of a law change matched by a follow: the followed articles that changed. */
export function followWhy(
  profile: { id: string; name: string; groupId: string | null },
  law: { id: string; title: string; change: "consolidated" | "announced"; act?: string | undefined },
  articles: { id: string; title: string }[],
): MatchWhy {
  return {
    via: "follow",
    profile: { id: profile.id, name: profile.name, group: Boolean(profile.groupId) },
    areas: [],
    terms: [],
    filters: {},
    law: { id: law.id, title: law.title, change: law.change, articles, ...(law.act ? { act: law.act } : {}) },
  };
}

/** A stored why, or undefined for rows written before there was one (or a malformed one). */
export function readWhy(value: unknown): MatchWhy | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = matchWhy.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const nameIn = (list: readonly { id: string; name: { es: string; en: string } }[], id: string, lang: Lang) =>
  list.find((entry) => entry.id === id)?.name[lang] ?? id;

const sourceNames: Record<string, string> = { boe: "BOE", eurlex: "EUR-Lex" };
const lowerFirst = (text: string) => (text ? text.charAt(0).toLocaleLowerCase() + text.slice(1) : text);
const startsWithAcronym = (text: string) => /^\p{Lu}{2}/u.test(text) || /^(BOE|EuroVoc|EUR-Lex)\b/.test(text);

/** The parts of a why in words ("área Banca y finanzas (…)", "términos: «solvencia»"), in the recipient's language. */
export function whyParts(why: MatchWhy, lang: Lang): string[] {
  const t = (lang === "en" ? en : es).why;
  const parts: string[] = [];
  if (why.law) {
    const articles = why.law.articles.map((a) => a.title).join(", ");
    if (why.law.change === "announced")
      parts.push(
        articles
          ? fillTemplate(t.lawAnnounced, { act: why.law.act ?? "", articles })
          : fillTemplate(t.lawAnnouncedWhole, { act: why.law.act ?? "" }),
      );
    else parts.push(articles ? fillTemplate(t.lawChanged, { articles }) : t.lawChangedWhole);
  }
  for (const area of why.areas) {
    const name = nameIn(areaList, area.id, lang);
    const evidence = area.evidence.map((e) => (startsWithAcronym(e[lang]) ? e[lang] : lowerFirst(e[lang])));
    parts.push(
      evidence.length
        ? fillTemplate(t.areaWithEvidence, { area: name, evidence: evidence.join("; ") })
        : fillTemplate(t.area, { area: name }),
    );
  }
  // Quotation marks as each language writes them: «solvencia», “solvency”.
  const quote = (term: string) => (lang === "en" ? `“${term}”` : `«${term}»`);
  if (why.terms.length) parts.push(fillTemplate(t.terms, { terms: why.terms.map(quote).join(", ") }));
  const f = why.filters;
  if (f.kind) parts.push(fillTemplate(t.kind, { value: nameIn(kinds, f.kind, lang) }));
  if (f.jurisdiction) parts.push(fillTemplate(t.jurisdiction, { value: nameIn(jurisdictions, f.jurisdiction, lang) }));
  if (f.source) parts.push(fillTemplate(t.source, { value: sourceNames[f.source] ?? f.source }));
  if (f.relevance) parts.push(fillTemplate(t.relevance, { value: lowerFirst(nameIn(relevances, f.relevance, lang)) }));
  return parts;
}

/**
 * The why as one sentence: «Coincide con tu perfil «Banca»: área Banca y finanzas (…); términos: «solvencia»».
 * profileName: the profile's current name when the caller knows it (a renamed profile), else the stored one.
 */
export function whyText(why: MatchWhy, lang: Lang, profileName?: string | null): string {
  const t = (lang === "en" ? en : es).why;
  const name = profileName ?? why.profile?.name ?? "";
  const head =
    why.via === "follow"
      ? fillTemplate(
          name && name !== why.law?.title
            ? why.profile?.group
              ? t.groupFollow
              : t.follow
            : why.profile?.group
              ? t.groupFollowPlain
              : t.followPlain,
          { name, law: why.law?.title ?? "" },
        )
      : why.via === "webhook"
        ? t.webhook
        : fillTemplate(why.profile?.group ? t.groupProfile : t.profile, { name });
  const parts = whyParts(why, lang);
  if (parts.length === 0) return `${head}${t.everything}`;
  return `${head}: ${parts.join("; ")}`;
}

/** The `why` of a webhook event (decision 0148): the stored facts, with the area names in both languages. */
export function whyForWebhook(why: MatchWhy) {
  return {
    via: why.via,
    ...(why.profile ? { profile: { id: why.profile.id, name: why.profile.name } } : {}),
    areas: why.areas.map((area) => ({
      id: area.id,
      name: { es: nameIn(areaList, area.id, "es"), en: nameIn(areaList, area.id, "en") },
      evidence: area.evidence,
    })),
    terms: why.terms,
    filters: why.filters,
    ...(why.law ? { law: why.law } : {}),
    text: { es: whyText(why, "es"), en: whyText(why, "en") },
  };
}
