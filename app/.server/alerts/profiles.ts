/**
 * Alert profiles: the input schema (create/update, shared with the browser, messages in es/en),
 * storage, and the pure `matches(profile, document)` used by the matcher.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { validationText } from "../../i18n/validation.ts";
import type { Executor as Db } from "../audit/executor.ts";
import { alertProfiles } from "../db/schema.ts";
import type { Relevance } from "../documents/types.ts";
import { areaIds, jurisdictionIds, kindIds, sourceIds } from "./taxonomy-ids.ts";

export type Lang = "es" | "en";

export const relevanceRank: Record<Relevance, number> = { low: 1, medium: 2, high: 3 };

/** What matching reads of a Document (the contract's shape plus the text when the store has it). */
export interface MatchableDocument {
  id: string;
  source: string;
  title: string;
  titles?: { es?: string; en?: string };
  text?: string;
  jurisdiction: string;
  kind: string;
  relevance: Relevance;
  areas: { id: string }[];
  publishedOn?: string;
  officialUrl?: string;
}

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Slack and Teams incoming-webhook hosts. */
export function isChatWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:") return false;
    const host = url.hostname.toLowerCase();
    return (
      host === "hooks.slack.com" ||
      host.endsWith(".webhook.office.com") ||
      host.endsWith(".logic.azure.com") ||
      host.endsWith(".powerplatform.com")
    );
  } catch {
    return false;
  }
}

/** The create/update schema in the user's language. */
export function profileInputSchema(lang: Lang) {
  const m = validationText(lang).profile;
  const list = <T extends readonly [string, ...string[]]>(ids: T, message: string) =>
    z
      .array(z.enum(ids, { error: message }))
      .max(ids.length)
      .default([]);
  return z
    .object({
      name: z.string({ error: m.name }).trim().min(1, m.name).max(120, m.name),
      userId: z.string().min(1).nullable().default(null),
      groupId: z.string().min(1).nullable().default(null),
      areas: list(areaIds, m.area),
      jurisdictions: list(jurisdictionIds, m.jurisdiction),
      kinds: list(kindIds, m.kind),
      sources: list(sourceIds, m.source),
      minRelevance: z.enum(["high", "medium", "low"], { error: m.relevance }).nullable().default(null),
      keywords: z.array(z.string().trim().min(2, m.keyword).max(80, m.keyword)).max(50).default([]),
      query: z.string().trim().max(500).nullable().default(null),
      email: z.enum(["off", "immediate", "digest"], { error: m.email }).default("off"),
      digestHour: z.number({ error: m.hour }).int(m.hour).min(0, m.hour).max(23, m.hour).default(8),
      timeZone: z.string().refine(validTimeZone, m.timeZone).default("Europe/Madrid"),
      chatWebhookUrl: z.string().refine(isChatWebhookUrl, m.chatUrl).nullable().default(null),
      language: z.enum(["es", "en"], { error: m.language }).default(lang),
      muted: z.boolean().default(false),
    })
    .strict()
    .superRefine((value, ctx) => {
      if (Boolean(value.userId) === Boolean(value.groupId))
        ctx.addIssue({ code: "custom", path: ["groupId"], message: m.owner });
      if (value.chatWebhookUrl && !value.groupId)
        ctx.addIssue({ code: "custom", path: ["chatWebhookUrl"], message: m.chatGroupOnly });
    });
}

export type ProfileInput = z.output<ReturnType<typeof profileInputSchema>>;

/** A stored profile as matching and delivery read it. */
export interface Profile {
  id: string;
  organizationId: string;
  userId: string | null;
  groupId: string | null;
  name: string;
  areas: string[];
  jurisdictions: string[];
  kinds: string[];
  sources: string[];
  minRelevance: number;
  keywords: string[];
  query: string | null;
  emailMode: string;
  digestHour: number;
  timeZone: string;
  chatWebhookUrl: string | null;
  language: string;
  muted: boolean;
}

/** Lower case, accents and punctuation folded: "Blanqueo de CAPITALES" ≈ "blanqueo de capitales". */
export function fold(value: string): string {
  return value
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function containsPhrase(haystack: string, phrase: string): boolean {
  const needle = fold(phrase);
  return needle.length > 0 && ` ${haystack} `.includes(` ${needle} `);
}

/** One term of a saved query: a word or a "quoted phrase" (folded), or a word* prefix. */
export interface QueryTerm {
  text: string;
  prefix: boolean;
  /** As typed, for saying what matched (punctuation around a word left out): "protección de datos", "financ". */
  typed: string;
}

/**
 * A saved query read with the search box's syntax (PostgreSQL's websearch plus prefixes): every
 * group must hold (a group is one term, or terms joined by OR), no excluded term may appear.
 */
export interface ParsedQuery {
  groups: QueryTerm[][];
  excluded: QueryTerm[];
}

/** `"protección de datos" -sanción blanqueo OR capitales financ*` → groups and exclusions. */
export function parseQuery(query: string): ParsedQuery {
  const groups: QueryTerm[][] = [];
  const excluded: QueryTerm[] = [];
  let joinNext = false;
  for (const match of query.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    const negate = match[1] === "-" || (match[3]?.startsWith("-") ?? false);
    const raw = match[2] ?? match[3]?.replace(/^-+/, "") ?? "";
    if (match[3] !== undefined && /^or$/i.test(raw) && !negate) {
      joinNext = groups.length > 0;
      continue;
    }
    const prefix = match[2] === undefined && raw.endsWith("*");
    const text = fold(raw);
    if (!text) continue;
    const typed = match[2] !== undefined ? raw.trim() : raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    const term = { text, prefix, typed };
    if (negate) excluded.push(term);
    else if (joinNext) groups[groups.length - 1]?.push(term);
    else groups.push([term]);
    joinNext = false;
  }
  return { groups, excluded };
}

function termIn(haystack: string, term: QueryTerm): boolean {
  return term.prefix ? ` ${haystack}`.includes(` ${term.text}`) : ` ${haystack} `.includes(` ${term.text} `);
}

function queryHolds(query: ParsedQuery, haystack: string): boolean {
  return (
    query.groups.every((group) => group.some((term) => termIn(haystack, term))) &&
    !query.excluded.some((term) => termIn(haystack, term))
  );
}

export interface FilterSet {
  areas: string[];
  jurisdictions: string[];
  kinds: string[];
  sources: string[];
  minRelevance: number;
  keywords?: string[];
  query?: string | null;
}

/** What of a filter set a document met: the areas it shares with the filter, the terms found in its text. */
export interface MatchHits {
  areas: string[];
  /** Keywords as the profile wrote them, then the query's words as typed. */
  terms: string[];
}

/** Why a document passes a filter set; matched only when every set filter holds. */
export function matches(
  profile: FilterSet,
  document: MatchableDocument,
): { matched: boolean; reasons: string[]; hits: MatchHits } {
  const reasons: string[] = [];
  const hits: MatchHits = { areas: [], terms: [] };
  const no = { matched: false, reasons: [], hits };
  if (profile.areas.length) {
    const hit = document.areas.map((a) => a.id).filter((id) => profile.areas.includes(id));
    if (!hit.length) return no;
    reasons.push(`area:${hit.join(",")}`);
    hits.areas = hit;
  }
  if (profile.jurisdictions.length) {
    if (!profile.jurisdictions.includes(document.jurisdiction)) return no;
    reasons.push(`jurisdiction:${document.jurisdiction}`);
  }
  if (profile.kinds.length) {
    if (!profile.kinds.includes(document.kind)) return no;
    reasons.push(`kind:${document.kind}`);
  }
  if (profile.sources.length) {
    if (!profile.sources.includes(document.source)) return no;
    reasons.push(`source:${document.source}`);
  }
  if (profile.minRelevance > 0) {
    if ((relevanceRank[document.relevance] ?? 0) < profile.minRelevance) return no;
    reasons.push(`relevance:${document.relevance}`);
  }
  const keywords = profile.keywords ?? [];
  const query = profile.query?.trim();
  if (keywords.length || query) {
    const haystack = fold(
      [document.title, document.titles?.es ?? "", document.titles?.en ?? "", document.text ?? ""].join(" "),
    );
    if (keywords.length) {
      const hit = keywords.filter((keyword) => containsPhrase(haystack, keyword));
      if (!hit.length) return no;
      reasons.push(`keywords:${hit.join(",")}`);
      hits.terms.push(...hit);
    }
    if (query) {
      const parsed = parseQuery(query);
      if (!queryHolds(parsed, haystack)) return no;
      reasons.push(`query:${query}`);
      // The terms found, as typed (excluded ones and OR are not what matched).
      for (const term of parsed.groups.flat()) {
        if (termIn(haystack, term) && !hits.terms.some((hit) => fold(hit) === term.text)) hits.terms.push(term.typed);
      }
    }
  }
  return { matched: true, reasons: reasons.length ? reasons : ["all"], hits };
}

export function toRow(organizationId: string, input: ProfileInput) {
  return {
    organizationId,
    userId: input.userId,
    groupId: input.groupId,
    name: input.name,
    areas: [...input.areas],
    jurisdictions: [...input.jurisdictions],
    kinds: [...input.kinds],
    sources: [...input.sources],
    minRelevance: input.minRelevance ? relevanceRank[input.minRelevance] : 0,
    keywords: input.keywords,
    query: input.query || null,
    emailMode: input.email,
    digestHour: input.digestHour,
    timeZone: input.timeZone,
    chatWebhookUrl: input.chatWebhookUrl,
    language: input.language,
    muted: input.muted,
  };
}

export async function createProfile(db: Db, organizationId: string, input: ProfileInput): Promise<Profile> {
  const [row] = await db
    .insert(alertProfiles)
    .values({ id: randomUUID(), ...toRow(organizationId, input) })
    .returning();
  return row as Profile;
}

export async function updateProfile(
  db: Db,
  organizationId: string,
  id: string,
  input: ProfileInput,
): Promise<Profile | undefined> {
  const [row] = await db
    .update(alertProfiles)
    .set({ ...toRow(organizationId, input), updatedAt: new Date() })
    .where(and(eq(alertProfiles.id, id), eq(alertProfiles.organizationId, organizationId)))
    .returning();
  return row as Profile | undefined;
}

export async function setMuted(db: Db, organizationId: string, id: string, muted: boolean): Promise<boolean> {
  const rows = await db
    .update(alertProfiles)
    .set({ muted, updatedAt: new Date() })
    .where(and(eq(alertProfiles.id, id), eq(alertProfiles.organizationId, organizationId)))
    .returning({ id: alertProfiles.id });
  return rows.length > 0;
}

/** The filters of a validated input, as matching reads them (the preview before saving). */
export function filtersOf(input: ProfileInput): FilterSet {
  const row = toRow("", input);
  return {
    areas: row.areas,
    jurisdictions: row.jurisdictions,
    kinds: row.kinds,
    sources: row.sources,
    minRelevance: row.minRelevance,
    keywords: row.keywords,
    query: row.query,
  };
}

/**
 * "Documents of the last 30 days this profile would have matched": the caller passes the recent
 * documents (the documents store's query for publishedOn ≥ today − 30); newest first, with reasons.
 */
export function previewMatches(
  filters: FilterSet,
  recent: MatchableDocument[],
  limit = 50,
): { total: number; items: { document: MatchableDocument; reasons: string[] }[] } {
  const hits = recent
    .map((document) => ({ document, result: matches(filters, document) }))
    .filter((hit) => hit.result.matched)
    .sort((a, b) => (b.document.publishedOn ?? "").localeCompare(a.document.publishedOn ?? ""));
  return {
    total: hits.length,
    items: hits.slice(0, limit).map((hit) => ({ document: hit.document, reasons: hit.result.reasons })),
  };
}
