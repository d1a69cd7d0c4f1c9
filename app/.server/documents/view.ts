/** The API's Document from a search hit or a detail (exactly the contract's keys, nothing more). */
import type { DocumentDetail, DocumentItem } from "./search.ts";

export function documentView(item: DocumentItem): DocumentItem {
  return {
    id: item.id,
    source: item.source,
    sourceId: item.sourceId,
    title: item.title,
    language: item.language,
    titles: item.titles,
    publishedOn: item.publishedOn,
    kind: item.kind,
    rank: item.rank,
    department: item.department,
    jurisdiction: item.jurisdiction,
    // Stored labels also carry the classifier's bilingual explanations (for the pages); the API's are { id, score, reasons }.
    areas: item.areas.map((area) => ({ id: area.id, score: area.score, reasons: area.reasons })),
    relevance: item.relevance,
    officialUrl: item.officialUrl,
    effectiveDates: item.effectiveDates,
    provenance: item.provenance,
    sample: item.sample,
  };
}

export function documentDetailView(detail: DocumentDetail) {
  return { ...documentView(detail), text: detail.text, relations: detail.relations };
}
