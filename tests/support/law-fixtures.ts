/**
 * The recorded consolidated laws' block versions read straight from the fixtures (a plain
 * reading of the XML, independent of the source's parser), and the recorded EU consolidated
 * versions: what the comparison tests and benchmarks run on.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sourcesFixturesDir } from "../../app/.server/fixtures-path.ts";

export interface RecordedVersion {
  normId: string;
  publishedOn: string;
  inForceOn: string | null;
  html: string;
}

export interface RecordedBlock {
  lawId: string;
  blockId: string;
  title: string;
  /** Oldest first (by entry into force, then publication). */
  versions: RecordedVersion[];
}

const consolidatedDir = path.join(sourcesFixturesDir, "boe/datosabiertos/api/legislacion-consolidada/id");
export const cellarTextsDir = path.join(sourcesFixturesDir, "cellar/resource/celex");

const iso = (d: string | undefined) =>
  d && /^\d{8}$/.test(d) ? `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}` : null;
const attr = (attrs: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1];

/** Every block of every recorded law that has its text (whole-law files `id/{ID}.xml`). */
export function recordedBoeBlocks(): RecordedBlock[] {
  const out: RecordedBlock[] = [];
  for (const file of readdirSync(consolidatedDir).filter((f) => f.endsWith(".xml"))) {
    const lawId = file.slice(0, -4);
    const xml = readFileSync(path.join(consolidatedDir, file), "utf8");
    for (const block of xml.matchAll(/<bloque\b([^>]*)>([\s\S]*?)<\/bloque>/g)) {
      const versions: RecordedVersion[] = [];
      for (const v of (block[2] ?? "").matchAll(/<version\b([^>]*)>([\s\S]*?)<\/version>/g)) {
        const attrs = v[1] ?? "";
        versions.push({
          normId: attr(attrs, "id_norma") ?? "",
          publishedOn: iso(attr(attrs, "fecha_publicacion")) ?? "",
          inForceOn: iso(attr(attrs, "fecha_vigencia")),
          html: v[2] ?? "",
        });
      }
      versions.sort(
        (a, b) =>
          (a.inForceOn ?? a.publishedOn).localeCompare(b.inForceOn ?? b.publishedOn) ||
          a.publishedOn.localeCompare(b.publishedOn),
      );
      out.push({
        lawId,
        blockId: attr(block[1] ?? "", "id") ?? "",
        title: attr(block[1] ?? "", "titulo") ?? "",
        versions,
      });
    }
  }
  return out;
}

/** The recorded consolidated EU versions (file name → XHTML), by act. */
export function recordedEuVersions(): Map<string, Array<{ celex: string; date: string; file: string }>> {
  const out = new Map<string, Array<{ celex: string; date: string; file: string }>>();
  for (const file of readdirSync(cellarTextsDir).sort()) {
    const m = /^0(\d{4}[A-Z]{1,2}\d{4})-(\d{4})(\d{2})(\d{2})\.xhtml$/.exec(file);
    if (!m) continue;
    const act = `3${m[1]}`;
    const list = out.get(act) ?? [];
    list.push({ celex: file.slice(0, -6), date: `${m[2]}-${m[3]}-${m[4]}`, file: path.join(cellarTextsDir, file) });
    out.set(act, list);
  }
  return out;
}
