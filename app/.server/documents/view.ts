/** The API's Document from a search hit or a detail (exactly the contract's keys, nothing more). */
import type { DocumentChange } from "./changes.ts";
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

/** A change line as the API gives it (decision 0141): paths are the platform's pages for that law. */
export function documentChangeView(change: DocumentChange) {
  return {
    lawId: change.lawId,
    verb: change.verb,
    line: change.line,
    text: change.text,
    lawTitle: change.lawTitle,
    blockIds: change.blockIds,
    lawPath: change.lawPath,
    consolidated: change.consolidated,
    followed: change.followed,
    ...(change.texts ? { texts: change.texts } : {}),
  };
}

export function documentDetailView(detail: DocumentDetail, changes: DocumentChange[] = []) {
  return {
    ...documentView(detail),
    text: detail.text,
    relations: detail.relations,
    changes: changes.map(documentChangeView),
  };
}
