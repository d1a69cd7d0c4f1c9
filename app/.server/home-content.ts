/** Server-side content of the home page that is prepared once per locale (e.g. highlighted code). */
import { createHighlighterCore, type HighlighterCore } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import type { Locale } from "../i18n/locales.ts";

export interface HomeContent {
  lang: Locale;
  /** The architecture section's code sample, highlighted: trusted HTML produced here. */
  codeSampleHtml: string;
}

/**
 * The architecture section's webhook sample: a request the platform's API accepts as
 * written (a test extracts it from the page and sends it). The command is the same in
 * both languages; only the shell comments are translated.
 */
export function codeSample(lang: Locale, siteUrl: string): string {
  const comments = {
    es: [
      "# Suscribe tu sistema a las novedades de banca y prevención del blanqueo (España y UE)",
      '# Respuesta 201: {"id": "…", "secret": "whsec_…"}. Guarda el secreto para verificar las firmas.',
      "# Cada novedad llega a tu URL como POST JSON firmado (Standard Webhooks):",
    ],
    en: [
      "# Subscribe your system to banking and anti-money-laundering news (Spain and the EU)",
      '# Response 201: {"id": "…", "secret": "whsec_…"}. Keep the secret to verify the signatures.',
      "# Each new item reaches your URL as a signed JSON POST (Standard Webhooks):",
    ],
  }[lang];
  return `${comments[0]}
curl -X POST ${siteUrl}/api/v1/webhooks \\
  -H "Authorization: Bearer $VIGIA_TOKEN" \\
  -H "Content-Type: application/json" \\
  -d '{"url": "https://intranet.example.com/vigia",
       "areas": ["banking", "aml"], "jurisdictions": ["ES", "EU"],
       "minRelevance": "medium"}'
${comments[1]}

${comments[2]}
# {"type": "document.matched", "timestamp": "…", "data": {"webhookId": "…",
#   "document": {"source": "boe", "sourceId": "BOE-A-…", "kind": "order",
#     "jurisdiction": "ES", "areas": [{"id": "aml", "score": …, "reasons": […]}],
#     "relevance": "high", "officialUrl": "https://www.boe.es/…", …}}}`;
}

let highlighter: Promise<HighlighterCore> | undefined;

/**
 * Fine-grained Shiki: the two themes and the one language the site shows (the sample is a shell
 * command), JavaScript regex engine (no WASM). Each grammar stays in memory for the process's life:
 * Vue's (with the HTML, CSS and JavaScript grammars it embeds) and SCSS's, loaded before and never
 * used, held 7 MB of live heap and about 40 MB of resident memory.
 */
function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import("shiki/themes/snazzy-light.mjs"), import("shiki/themes/min-dark.mjs")],
    langs: [import("shiki/langs/shellscript.mjs")],
    engine: createJavaScriptRegexEngine(),
  });
  return highlighter;
}

/** The grammars in memory (each is kept for the process's life). */
export async function loadedGrammars(): Promise<string[]> {
  return (await getHighlighter()).getLoadedLanguages();
}

/** Highlights code with both themes as CSS variables; app.scss switches them with [data-bs-theme=dark]. */
export async function highlight(code: string, lang: "shellscript"): Promise<string> {
  const shiki = await getHighlighter();
  const html = shiki.codeToHtml(code, {
    lang,
    themes: { light: "snazzy-light", dark: "min-dark" },
    defaultColor: "light",
  });
  return withReadableColors(html);
}

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const n = Number.parseInt(hex.slice(1, 7), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(parseHex(a)), luminance(parseHex(b))].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Moves a colour towards black or white until it reaches WCAG AA (4.5:1) on the background. */
export function readableOn(color: string, background: string, minRatio = 4.6): string {
  const target: Rgb = luminance(parseHex(background)) > 0.5 ? [0, 0, 0] : [255, 255, 255];
  const start = parseHex(color);
  for (let step = 0; step <= 20; step++) {
    const t = step / 20;
    const mixed = toHex(start.map((c, i) => c + (target[i]! - c) * t) as Rgb);
    if (contrastRatio(mixed, background) >= minRatio) return mixed;
  }
  return toHex(target);
}

/**
 * Both themes have decorative tones (comments, some strings) below AA contrast;
 * the site must pass WCAG 2.2 AA in both colour modes, so those are darkened
 * (light theme) or lightened (dark theme) just enough, keeping their hue.
 */
function withReadableColors(html: string): string {
  const lightBg = /background-color:(#[0-9a-fA-F]{6})/.exec(html)?.[1] ?? "#ffffff";
  const darkBg = /--shiki-dark-bg:(#[0-9a-fA-F]{6})/.exec(html)?.[1] ?? "#000000";
  return html
    .replace(/(?<![-\w])color:(#[0-9a-fA-F]{6})/g, (_, c: string) => `color:${readableOn(c, lightBg)}`)
    .replace(/--shiki-dark:(#[0-9a-fA-F]{6})/g, (_, c: string) => `--shiki-dark:${readableOn(c, darkBg)}`);
}

// The loader runs on every request; the highlighted HTML is computed once per locale.
const cache = new Map<Locale, Promise<HomeContent>>();

export function loadHomeContent(lang: Locale, siteUrl: string): Promise<HomeContent> {
  let content = cache.get(lang);
  if (!content) {
    content = highlight(codeSample(lang, siteUrl), "shellscript").then((codeSampleHtml) => ({ lang, codeSampleHtml }));
    // A failure is not cached: the next request tries again.
    content.catch(() => cache.delete(lang));
    cache.set(lang, content);
  }
  return content;
}
