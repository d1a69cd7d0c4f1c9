/** Layer 2: keyword rules, stemmed and accent-insensitive, and organisations' own topics. */
import type { AreaId } from "../../lib/taxonomy.ts";
import type { DocumentText } from "./document-text.ts";
import { type Reason, reason } from "./reasons.ts";
import type { AreaEvidence } from "./scores.ts";
import { keywordRules } from "./tables/keywords.ts";
import { stemmedPhrase, stemmedText } from "./text.ts";

/** Evidence of a keyword in the title. */
export const TITLE_SCORE = 0.8;
/**
 * Evidence of keywords in the opening text grows with the number of hits (every occurrence
 * of every phrase of the rule): 1 − 0.7^hits, at most TEXT_MAX (one hit 0.3, two 0.51,
 * three 0.66). A passing mention stays below any area's threshold on its own; a text that
 * keeps talking about the matter does not.
 */
export const TEXT_BASE = 0.7;
export const TEXT_MAX = 0.75;

export function textScore(hits: number): number {
  return Math.min(TEXT_MAX, 1 - TEXT_BASE ** hits);
}

interface CompiledPhrase {
  phrase: string;
  /** The phrase's language; undefined for an organisation's keyword (matched in any). */
  language?: "es" | "en";
  stems: Record<"es" | "en", string>;
  /** The phrase's first stem, to skip it quickly on a text that lacks that word. */
  first: Record<"es" | "en", string>;
}

interface CompiledRule {
  area: AreaId;
  titleOnly: boolean;
  unless: CompiledPhrase[];
  phrases: CompiledPhrase[];
}

function compilePhrase(phrase: string, language?: "es" | "en"): CompiledPhrase {
  return {
    phrase,
    ...(language ? { language } : {}),
    stems: { es: stemmedPhrase(phrase, "es"), en: stemmedPhrase(phrase, "en") },
    first: {
      es: stemmedPhrase(phrase, "es").trim().split(" ")[0] ?? "",
      en: stemmedPhrase(phrase, "en").trim().split(" ")[0] ?? "",
    },
  };
}

let compiled: CompiledRule[] | undefined;

function rules(): CompiledRule[] {
  compiled ??= keywordRules.map((rule) => ({
    area: rule.area,
    titleOnly: rule.titleOnly ?? false,
    unless: (rule.unless ?? []).map((phrase) => compilePhrase(phrase, "es")),
    phrases: [
      ...(rule.phrases.es ?? []).map((phrase) => compilePhrase(phrase, "es")),
      ...(rule.phrases.en ?? []).map((phrase) => compilePhrase(phrase, "en")),
    ],
  }));
  return compiled;
}

/** Stemmed title and opening of a document, computed once and shared by rules and topics. */
export interface StemmedDocument {
  title: string;
  body: string;
}

/**
 * The part of the title that says what it is about. An agreement's title names its
 * parties first ("se publica el Convenio entre la Autoridad Portuaria … y …, para …"):
 * the parties' names say nothing of the subject, so only what follows "para", "en
 * materia de" or "sobre" counts.
 */
export function subjectOfTitle(title: string): string {
  const agreement = title.match(/se publica(?:n)? (?:el|la|los|las) (?:convenio|adenda)/i);
  if (!agreement || agreement.index === undefined) return title;
  const rest = title.slice(agreement.index);
  const subject = rest.match(/,? (?:para|en materia de|sobre) (.*)$/i);
  return subject?.[1] ?? "";
}

/** Whether a phrase of the keyword rules matches the document (title, and opening text unless title-only). */
export function phraseMatches(
  entry: { language: "es" | "en"; phrase: string; titleOnly: boolean },
  text: DocumentText,
  stemmed: StemmedDocument,
): boolean {
  const phrase = compilePhrase(entry.phrase, entry.language);
  return find(phrase, stemmed.title, text.language) || (!entry.titleOnly && find(phrase, stemmed.body, text.language));
}

export function stemDocument(text: DocumentText): StemmedDocument {
  return {
    title: stemmedText(`${subjectOfTitle(text.title)} ${text.epigraph}`, text.language),
    body: stemmedText(text.opening, text.language),
  };
}

/** Where the phrase occurs in the stemmed text: [start, end) spans. */
function spans(phrase: CompiledPhrase, haystack: string, language: "es" | "en", out: [number, number][]): void {
  if (phrase.language && phrase.language !== language) return;
  const needle = phrase.stems[language];
  if (needle.trim().length === 0) return;
  // Phrases are padded with spaces; step back one so that adjacent hits share the space.
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length - 1)) {
    out.push([at, at + needle.length - 1]);
  }
}

/** The number of places the text names the matter: overlapping phrases ("protección de datos personales", "datos personales") count once. */
function countPlaces(found: [number, number][]): number {
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let count = 0;
  let end = -1;
  for (const [start, stop] of found) {
    if (start < end) continue;
    count++;
    end = stop;
  }
  return count;
}

function find(phrase: CompiledPhrase, haystack: string, language: "es" | "en"): boolean {
  if (phrase.language && phrase.language !== language) return false;
  const needle = phrase.stems[language];
  return needle.trim().length > 0 && haystack.includes(needle);
}

/** The keyword rules' phrases, per area and language (for audits such as classify:eval --leakage). */
export function keywordPhrases(): { area: AreaId; language: "es" | "en"; phrase: string; titleOnly: boolean }[] {
  return rules().flatMap((rule) =>
    rule.phrases.map((p) => ({
      area: rule.area,
      language: p.language ?? "es",
      phrase: p.phrase,
      titleOnly: rule.titleOnly,
    })),
  );
}

export function applyKeywords(
  text: DocumentText,
  stemmed: StemmedDocument,
  evidence: AreaEvidence,
  without?: ReadonlySet<string>,
): void {
  const titleWords = new Set(stemmed.title.split(" "));
  const bodyWords = new Set(stemmed.body.split(" "));
  const lang = text.language;
  for (const rule of rules()) {
    if (rule.unless.some((phrase) => find(phrase, stemmed.title, text.language))) continue;
    let titleHit: CompiledPhrase | undefined;
    let bodyHit: CompiledPhrase | undefined;
    const found: [number, number][] = [];
    for (const phrase of rule.phrases) {
      if (without?.has(phrase.phrase)) continue;
      if (!titleHit && titleWords.has(phrase.first[lang]) && find(phrase, stemmed.title, lang)) titleHit = phrase;
      if (!rule.titleOnly && bodyWords.has(phrase.first[lang])) {
        const before = found.length;
        spans(phrase, stemmed.body, text.language, found);
        if (found.length > before) bodyHit ??= phrase;
      }
    }
    const hits = countPlaces(found);
    if (titleHit)
      evidence.add(rule.area, TITLE_SCORE, reason("keyword", { phrase: titleHit.phrase, where: "title" }), "keywords");
    if (bodyHit)
      evidence.add(
        rule.area,
        textScore(hits),
        reason("keyword", { phrase: bodyHit.phrase, where: "text" }),
        "keywords",
      );
  }
}

/** An organisation's own topic: keyword rules that label documents for that organisation only. */
export interface OrganisationTopic {
  id: string;
  name: string;
  keywords: string[];
  area?: AreaId;
}

export interface TopicMatch {
  id: string;
  name: string;
  area?: AreaId;
  reasons: string[];
  explanations: Reason[];
}

export function matchTopics(
  topics: readonly OrganisationTopic[],
  text: DocumentText,
  stemmed: StemmedDocument,
): TopicMatch[] {
  const matches: TopicMatch[] = [];
  // The areas read an agreement's title from its subject on (subjectOfTitle); an organisation's
  // keyword may be a party's name (its own, a counterpart's), so it is matched in the whole title
  // too, stemmed only for a title that was cut and a keyword not found otherwise.
  const cut = subjectOfTitle(text.title) !== text.title;
  let wholeTitle: string | undefined;
  const inWholeTitle = (phrase: CompiledPhrase) => {
    if (!cut) return false;
    wholeTitle ??= stemmedText(text.title, text.language);
    return find(phrase, wholeTitle, text.language);
  };
  for (const topic of topics) {
    const explanations: Reason[] = [];
    for (const keyword of topic.keywords) {
      if (!keyword.trim()) continue;
      const phrase = compilePhrase(keyword);
      if (
        find(phrase, stemmed.title, text.language) ||
        find(phrase, stemmed.body, text.language) ||
        inWholeTitle(phrase)
      ) {
        explanations.push(reason("topic-keyword", { topic: topic.name, phrase: keyword }));
      }
    }
    if (explanations.length > 0) {
      matches.push({
        id: topic.id,
        name: topic.name,
        ...(topic.area ? { area: topic.area } : {}),
        reasons: explanations.map((r) => r.es),
        explanations,
      });
    }
  }
  return matches;
}
