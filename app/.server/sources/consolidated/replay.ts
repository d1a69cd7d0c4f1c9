/**
 * The replay's BOE consolidated-legislation answers (fixtures/sources/boe/datosabiertos/api/
 * legislacion-consolidada, see its README), able to move in time: with a date set (for every law,
 * or per law), a law is served as it stood that day. Versions published after it are hidden in the
 * whole law and in every block, blocks with no version left are absent (from the text and the
 * index), a repeal (fecha_caducidad) after that day is not there yet, the index dates are the
 * latest remaining publication dates, and metadatos' fecha_actualizacion is that day's (the
 * recording's own once the day reaches it). Moving the date forward shows the law changing.
 * The change list (`?from=&to=&offset=&limit=`) is synthesized from the metadatos as served
 * (XML or JSON), or answers 404 when turned off, as the real API may.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const BASE = "/datosabiertos/api/legislacion-consolidada";
const DIR = "boe/datosabiertos/api/legislacion-consolidada/id";

export interface LawReplayState {
  /** Law id → YYYY-MM-DD; "*" for every law. Absent: the recording as it is. */
  asOf: Map<string, string>;
  /** The change list answers (synthesized); false: 404. */
  changeList: boolean;
}

export const newLawReplayState = (): LawReplayState => ({ asOf: new Map(), changeList: true });

export interface LawAnswer {
  text: string;
  type: string;
}

const compact = (iso: string) => iso.replaceAll("-", "");
const XML = "application/xml; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";

function dateFor(state: LawReplayState, lawId: string): string | undefined {
  return state.asOf.get(lawId) ?? state.asOf.get("*");
}

interface BlockDates {
  /** Latest publication date (YYYYMMDD) among the versions published by the cut-off. */
  latest: Map<string, string>;
}

/** Removes the versions published after `cut` (YYYYMMDD) from one `<bloque>` element; "" when none is left. */
function cutBlock(block: string, cut: string): { text: string; latest: string | undefined } {
  let latest: string | undefined;
  const kept = block.replace(
    /[ \t]*<version\b[^>]*?fecha_publicacion="(\d{8})"[^>]*>[\s\S]*?<\/version>\n?/g,
    (whole, date: string) => {
      if (date > cut) return "";
      if (!latest || date > latest) latest = date;
      return whole;
    },
  );
  if (!latest) return { text: "", latest: undefined };
  const text = kept.replace(/\sfecha_caducidad="(\d{8})"/, (whole, date: string) => (date > cut ? "" : whole));
  return { text, latest };
}

function cutBlocks(xml: string, cut: string): { text: string; dates: BlockDates } {
  const latest = new Map<string, string>();
  const text = xml.replace(
    /([ \t]*)<bloque\b([^>]*)>[\s\S]*?<\/bloque>\n?/g,
    (whole, _indent: string, attrs: string) => {
      const id = /\bid="([^"]*)"/.exec(attrs)?.[1] ?? "";
      const result = cutBlock(whole, cut);
      if (result.latest) latest.set(id, result.latest);
      return result.text;
    },
  );
  return { text, dates: { latest } };
}

function read(root: string, rel: string): string | undefined {
  const full = path.resolve(root, rel);
  if (!full.startsWith(root + path.sep) || !existsSync(full)) return undefined;
  return readFileSync(full, "utf8");
}

/** The recorded fecha_actualizacion of a law (YYYYMMDDTHHMMSSZ). */
function recordedUpdate(root: string, lawId: string): string | undefined {
  const meta = read(root, `${DIR}/${lawId}/metadatos.xml`);
  return meta ? /<fecha_actualizacion>(\d{8}T\d{6}Z)<\/fecha_actualizacion>/.exec(meta)?.[1] : undefined;
}

/** Block dates of a law as of `cut`, from its whole recording; undefined for laws recorded without text. */
function datesAsOf(root: string, lawId: string, cut: string): BlockDates | undefined {
  const whole = read(root, `${DIR}/${lawId}.xml`);
  return whole ? cutBlocks(whole, cut).dates : undefined;
}

/** fecha_actualizacion as served on `date`: the recording's once the day reaches it, else that day's. */
function updateAsOf(root: string, lawId: string, date: string | undefined): string | undefined {
  const recorded = recordedUpdate(root, lawId);
  if (!date || !recorded) return recorded;
  return compact(date) >= recorded.slice(0, 8) ? recorded : `${compact(date)}T000000Z`;
}

function metadatosXml(root: string, lawId: string, date: string | undefined, xml: string): string {
  const update = updateAsOf(root, lawId, date);
  return update
    ? xml.replace(
        /<fecha_actualizacion>\d{8}T\d{6}Z<\/fecha_actualizacion>/,
        `<fecha_actualizacion>${update}</fecha_actualizacion>`,
      )
    : xml;
}

function indexAsOf(root: string, lawId: string, date: string, body: string, json: boolean): string {
  const cut = compact(date);
  const dates = datesAsOf(root, lawId, cut);
  const dateOf = (id: string, recorded: string): string | undefined =>
    dates ? dates.latest.get(id) : recorded <= cut ? recorded : undefined;
  if (json) {
    const bom = body.charCodeAt(0) === 0xfeff ? "\ufeff" : "";
    const tree = JSON.parse(body.slice(bom.length)) as { data: Array<{ bloque: Array<Record<string, string>> }> };
    for (const data of tree.data) {
      data.bloque = data.bloque.flatMap((b) => {
        const d = dateOf(String(b.id), String(b.fecha_actualizacion));
        return d ? [{ ...b, fecha_actualizacion: d }] : [];
      });
    }
    return bom + JSON.stringify(tree, null, 4);
  }
  return body.replace(
    /([ \t]*)<bloque>\s*<id>([^<]*)<\/id>([\s\S]*?)<\/bloque>\n?/g,
    (whole, _i: string, id: string) => {
      const recorded = /<fecha_actualizacion>(\d{8})<\/fecha_actualizacion>/.exec(whole)?.[1] ?? "";
      const d = dateOf(id, recorded);
      if (!d) return "";
      return whole.replace(
        /<fecha_actualizacion>\d{8}<\/fecha_actualizacion>/,
        `<fecha_actualizacion>${d}</fecha_actualizacion>`,
      );
    },
  );
}

function lawIds(root: string): string[] {
  const dir = path.join(root, DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /^BOE-[A-Z]-\d{4}-\d+$/.test(name))
    .sort();
}

function changeList(root: string, state: LawReplayState, url: URL, json: boolean): LawAnswer {
  const from = url.searchParams.get("from") ?? "00000000";
  const to = url.searchParams.get("to") ?? "99999999";
  const offset = Math.max(0, Number(url.searchParams.get("offset") ?? 0) || 0);
  const limit = Math.max(1, Math.min(500, Number(url.searchParams.get("limit") ?? 50) || 50));
  const items: string[] = [];
  for (const id of lawIds(root)) {
    const meta = read(root, `${DIR}/${id}/metadatos.xml`);
    if (!meta) continue;
    const served = metadatosXml(root, id, dateFor(state, id), meta);
    const update = /<fecha_actualizacion>(\d{8})T/.exec(served)?.[1] ?? "";
    if (update < from || update > to) continue;
    items.push(/<metadatos>([\s\S]*?)<\/metadatos>/.exec(served)?.[1] ?? "");
  }
  const page = items.slice(offset, offset + limit);
  if (!json) {
    const body = page.map((inner) => `    <item>${inner}</item>`).join("\n");
    return {
      text: `<?xml version="1.0" encoding="utf-8"?>\n<response>\n  <status>\n    <code>200</code>\n    <text>ok</text>\n  </status>\n  <data>\n${body}\n  </data>\n</response>\n`,
      type: XML,
    };
  }
  const data = page.map((inner) => {
    const item: Record<string, unknown> = {};
    for (const m of inner.matchAll(/<(\w+)(?:\s+codigo="([^"]*)")?>([^<]*)<\/\1>/g)) {
      item[m[1] as string] = m[2] !== undefined ? { codigo: m[2], texto: m[3] } : m[3];
    }
    return item;
  });
  return { text: JSON.stringify({ status: { code: "200", text: "ok" }, data }), type: JSON_TYPE };
}

/**
 * The answer to a consolidated-legislation request, or undefined (404). `pathname` is decoded.
 * Handled only when the path starts with the API's base.
 */
export function resolveConsolidated(
  root: string,
  state: LawReplayState,
  url: URL,
  pathname: string,
  accept: string,
): LawAnswer | undefined | "not-mine" {
  if (pathname !== BASE && !pathname.startsWith(`${BASE}/`)) return "not-mine";
  const json = /json/.test(accept) && !/xml/.test(accept);
  if (pathname === BASE || pathname === `${BASE}/`) {
    // The list: every law, or (from/to) those republished in a range; paged by offset/limit.
    if (!state.changeList) return undefined;
    return changeList(root, state, url, json);
  }
  const m = /^\/datosabiertos\/api\/legislacion-consolidada\/id\/(BOE-[A-Z]-\d{4}-\d+)(\/.*)?$/.exec(pathname);
  if (!m) return undefined;
  const lawId = m[1] as string;
  const rest = m[2] ?? "";
  const date = dateFor(state, lawId);
  const cut = date ? compact(date) : undefined;
  if (rest === "") {
    const whole = read(root, `${DIR}/${lawId}.xml`);
    if (!whole) return undefined;
    const text = cut ? metadatosXml(root, lawId, date, cutBlocks(whole, cut).text) : whole;
    return { text, type: XML };
  }
  if (rest === "/metadatos" || rest === "/texto/indice") {
    const jsonFile = json ? read(root, `${DIR}/${lawId}${rest}.json`) : undefined;
    const body = jsonFile ?? read(root, `${DIR}/${lawId}${rest}.xml`);
    if (!body) return undefined;
    const type = jsonFile ? JSON_TYPE : XML;
    if (!date) return { text: body, type };
    if (rest === "/texto/indice") return { text: indexAsOf(root, lawId, date, body, Boolean(jsonFile)), type };
    if (jsonFile) {
      const update = updateAsOf(root, lawId, date);
      return { text: update ? body.replace(/("fecha_actualizacion":\s*")\d{8}T\d{6}Z"/, `$1${update}"`) : body, type };
    }
    return { text: metadatosXml(root, lawId, date, body), type };
  }
  if (rest === "/analisis" || rest === "/metadata-eli") {
    const body = read(root, `${DIR}/${lawId}${rest}.xml`);
    return body ? { text: body, type: XML } : undefined;
  }
  const b = /^\/texto\/bloque\/(.+)$/.exec(rest);
  if (b) {
    const blockId = b[1] as string;
    if (blockId.includes("/") || blockId.startsWith(".")) return undefined;
    const body = read(root, `${DIR}/${lawId}/texto/bloque/${blockId}.xml`);
    if (!body) return undefined;
    if (!cut) return { text: body, type: XML };
    const result = cutBlocks(body, cut);
    // A block that did not exist yet: 404, as for an unknown block.
    if (result.dates.latest.size === 0) return undefined;
    return { text: result.text, type: XML };
  }
  return undefined;
}
