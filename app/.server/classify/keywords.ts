/** Layer 2: keyword rules, stemmed and accent-insensitive, and organisations' own topics. */
import type { AreaId } from "../../lib/taxonomy.ts";
import type { DocumentText } from "./document-text.ts";
import { type Reason, reason } from "./reasons.ts";
import type { AreaEvidence } from "./scores.ts";
import { keywordRules } from "./tables/keywords.ts";
import { stemmedPhrase, stemmedText } from "./text.ts";

/** Evidence of one keyword in the title and in the opening text. */
export const TITLE_SCORE = 0.8;
export const TEXT_SCORE = 0.45;

interface CompiledPhrase {
  phrase: string;
  /** The phrase's language; undefined for an organisation's keyword (matched in any). */
  language?: "es" | "en";
  stems: Record<"es" | "en", string>;
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
  for (const rule of rules()) {
    if (rule.unless.some((phrase) => find(phrase, stemmed.title, text.language))) continue;
    let titleHit: CompiledPhrase | undefined;
    let bodyHit: CompiledPhrase | undefined;
    for (const phrase of rule.phrases) {
      if (without?.has(phrase.phrase)) continue;
      if (!titleHit && find(phrase, stemmed.title, text.language)) titleHit = phrase;
      if (!rule.titleOnly && !bodyHit && find(phrase, stemmed.body, text.language)) bodyHit = phrase;
      if (titleHit && (bodyHit || rule.titleOnly)) break;
    }
    if (titleHit)
      evidence.add(rule.area, TITLE_SCORE, reason("keyword", { phrase: titleHit.phrase, where: "title" }), "keywords");
    if (bodyHit)
      evidence.add(rule.area, TEXT_SCORE, reason("keyword", { phrase: bodyHit.phrase, where: "text" }), "keywords");
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
  for (const topic of topics) {
    const explanations: Reason[] = [];
    for (const keyword of topic.keywords) {
      if (!keyword.trim()) continue;
      const phrase = compilePhrase(keyword);
      if (find(phrase, stemmed.title, text.language) || find(phrase, stemmed.body, text.language)) {
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
