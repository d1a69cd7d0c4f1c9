/**
 * The signed-in home's lists: the latest documents with the member's filters (remembered in the
 * vn.home_filters cookie, tied to the user who chose them) and their unread alerts.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../.server/db/client.ts";
import { alerts } from "../../.server/db/schema/alerts.ts";
import type { Filters } from "./search.server.ts";

export const homeFiltersCookie = "vn.home_filters";
/** The filters the home keeps: what narrows "the latest", not a query. */
export const homeFilterKeys = ["source", "area", "jurisdiction", "kind", "relevance"] as const;

const maxAgeSeconds = 365 * 24 * 3600;

/** The filters present in a URL, or null when it names none (then the remembered ones apply). */
export function filtersInUrl(search: URLSearchParams): Filters | null {
  let any = false;
  const out: Filters = {};
  for (const key of homeFilterKeys) {
    if (!search.has(key)) continue;
    any = true;
    const value = search.get(key)?.trim();
    if (value) out[key] = value.slice(0, 100);
  }
  return any ? out : null;
}

/** The filters remembered for this user, from the Cookie header (ignored when another user set them). */
export function rememberedFilters(cookieHeader: string | null, userId: string): Filters {
  const match = new RegExp(`(?:^|;\\s*)${homeFiltersCookie.replace(".", "\\.")}=([^;]*)`).exec(cookieHeader ?? "");
  if (!match?.[1]) return {};
  let raw: string;
  try {
    raw = decodeURIComponent(match[1]);
  } catch {
    return {};
  }
  const separator = raw.indexOf("|");
  if (separator < 0 || raw.slice(0, separator) !== userId) return {};
  const search = new URLSearchParams(raw.slice(separator + 1));
  return filtersInUrl(search) ?? {};
}

/** The Set-Cookie line remembering these filters for this user (or forgetting them when empty). */
export function rememberFiltersCookie(filters: Filters, userId: string, secure: boolean): string {
  const search = new URLSearchParams();
  for (const key of homeFilterKeys) if (filters[key]) search.set(key, filters[key] as string);
  const value = search.toString();
  const attributes = `Path=/app; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  if (!value) return `${homeFiltersCookie}=; Max-Age=0; ${attributes}`;
  return `${homeFiltersCookie}=${encodeURIComponent(`${userId}|${value}`)}; Max-Age=${maxAgeSeconds}; ${attributes}`;
}

export interface UnreadAlert {
  id: number;
  documentId: string;
  title: string;
  createdAt: string;
}

/** The member's unread alerts, newest first. */
export async function unreadAlerts(db: Db, userId: string, limit = 10): Promise<UnreadAlert[]> {
  const rows = await db
    .select({ id: alerts.id, documentId: alerts.documentId, title: alerts.title, createdAt: alerts.createdAt })
    .from(alerts)
    .where(and(eq(alerts.userId, userId), isNull(alerts.readAt)))
    .orderBy(desc(alerts.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
