/**
 * The registered sources: ONE line per source in `builtIn` (its order is the Sources page's).
 * Everything else derives from here: SourceId, INGEST_SOURCES and the sources' environment
 * variables (config.ts), the jobs (sources/jobs.ts), the Sources page and
 * GET /api/v1/sources, the OpenAPI enum of source ids, and classify's per-source hints.
 * See docs/sources.md, "Add a source".
 */
import { boeSource } from "./boe/index.ts";
import { lawCatalogueSource } from "./catalogue/index.ts";
import { boeLawsSource } from "./consolidated/index.ts";
import { euLawsSource } from "./eu-consolidated/index.ts";
import { eurlexSource } from "./eurlex/index.ts";
import { feedSource } from "./feeds/index.ts";
import type { ClassificationHints, SettingsOf, SourcePlugin } from "./plugin.ts";

// biome-ignore format: one registration line per source
const builtIn = [
  boeSource,
  eurlexSource,
  feedSource,
  boeLawsSource,
  euLawsSource,
  lawCatalogueSource,
] as const;

/** A registered source's id ("boe" | "eurlex" | "feed" | …), derived from the registry. */
export type SourceId = (typeof builtIn)[number]["id"];

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;
/** Every source's settings merged (config.sources). */
export type RegisteredSourceSettings = UnionToIntersection<SettingsOf<(typeof builtIn)[number]>>;

/** Sources registered at run time (tests; an extension loaded at start). */
const added: SourcePlugin[] = [];

/** Every registered source, built-in first. */
export function registeredSources(): readonly SourcePlugin[] {
  return [...(builtIn as readonly SourcePlugin[]), ...added];
}

/** The registered ids, in order. */
export function registeredSourceIds(): string[] {
  return registeredSources().map((source) => source.id);
}

export function sourcePlugin(id: string): SourcePlugin | undefined {
  return registeredSources().find((source) => source.id === id);
}

/** The ids INGEST_SOURCES may name, and those it names by default. */
export function selectableSourceIds(): { all: string[]; byDefault: string[] } {
  const selectable = registeredSources().filter((source) => source.selectable);
  return {
    all: selectable.map((source) => source.id),
    byDefault: selectable.filter((source) => source.defaultOn).map((source) => source.id),
  };
}

/** The registered sources of documents as choices for filters, with their short names in `locale`. */
export function sourceChoices(locale: "es" | "en"): Array<{ id: string; label: string }> {
  return registeredSources()
    .filter((source) => source.storesDocuments !== false)
    .map((source) => ({ id: source.id, label: (source.shortLabels ?? source.labels)[locale] }));
}

/** The source's classification hints (none for an unknown id). */
export function classificationHints(id: string): ClassificationHints {
  return sourcePlugin(id)?.classification ?? {};
}

/**
 * Registers a source at run time (before config is read and jobs start); returns its removal.
 * Built-in sources are registered by their line above, not here.
 */
export function registerSource(plugin: SourcePlugin): () => void {
  if (sourcePlugin(plugin.id)) throw new Error(`source "${plugin.id}" is registered twice`);
  added.push(plugin);
  return () => {
    const at = added.indexOf(plugin);
    if (at >= 0) added.splice(at, 1);
  };
}
