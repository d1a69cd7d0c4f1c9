/**
 * A law's title in the reader's language. The law's own row keeps the title its source gave
 * (an EU act's consolidated text is read in English); the catalogue keeps Cellar's titles by
 * language where Cellar has them (issue 40: the GDPR read in Spanish in the Spanish interface).
 */
import { sql } from "drizzle-orm";
import type { Locale } from "../../i18n/locales.ts";
import type { Database } from "../db/client.ts";

/** The catalogue's title in `locale` for each of `ids` that has one. */
export async function localTitles(database: Database, ids: string[], locale: Locale): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await database.rows<{ id: string; title: string }>(sql`
    select id, titles->>${locale} as title from law_catalogue
    where id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)) and coalesce(titles->>${locale}, '') <> ''`);
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** `title` in the reader's language when the catalogue has it, else as given. */
export async function localTitle(database: Database, id: string, title: string, locale: Locale): Promise<string> {
  return (await localTitles(database, [id], locale)).get(id) ?? title;
}
