/** Links into the platform for laws (one place, so the law page's routes can move without hunting). */
const base = (siteUrl: string) => siteUrl.replace(/\/$/, "");

export function lawLink(siteUrl: string, lawId: string): string {
  return `${base(siteUrl)}/app/laws/${encodeURIComponent(lawId)}`;
}

/** The comparison of a block's version from `normId` with the one before it. */
export function lawCompareLink(siteUrl: string, lawId: string, blockId: string, normId?: string): string {
  const query = new URLSearchParams({ block: blockId, ...(normId ? { to: normId } : {}) });
  return `${lawLink(siteUrl, lawId)}/compare?${query.toString()}`;
}

/** A law change (the alert of that change), e.g. the early warning a consolidated change follows up. */
export function lawChangeLink(siteUrl: string, lawId: string, changeId: string): string {
  return `${lawLink(siteUrl, lawId)}?change=${encodeURIComponent(changeId)}`;
}

export function officialLawUrl(lawId: string): string {
  return `https://www.boe.es/buscar/act.php?id=${encodeURIComponent(lawId)}`;
}
