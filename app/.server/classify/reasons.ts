/**
 * Reasons for labels, structured so the UI can show them in either language: a code,
 * its parameters, and the sentence in es and en. `AreaLabel.reasons` carries the
 * Spanish sentence (the documents' language); `explanations` carries the structure.
 */

export type ReasonCode =
  | "section"
  | "department"
  | "materia"
  | "alerta"
  | "author"
  | "eurovoc"
  | "directory"
  | "keyword"
  | "model"
  | "fallback"
  | "topic-keyword";

export interface Reason {
  code: ReasonCode;
  params: Record<string, string>;
  es: string;
  en: string;
}

const quote = (text: string) => `«${text}»`;

export function reason(code: ReasonCode, params: Record<string, string>): Reason {
  const p = (key: string) => params[key] ?? "";
  switch (code) {
    case "section":
      return {
        code,
        params,
        es: `Sección BOE ${p("code")} ${quote(p("name"))}`,
        en: `BOE section ${p("code")} ${quote(p("name"))}`,
      };
    case "department":
      return { code, params, es: `Departamento: ${p("name")}`, en: `Department: ${p("name")}` };
    case "materia":
      return {
        code,
        params,
        es: `BOE materia ${p("code")} ${quote(p("label"))}`,
        en: `BOE subject ${p("code")} ${quote(p("label"))}`,
      };
    case "alerta":
      return {
        code,
        params,
        es: `BOE alerta ${p("code")} ${quote(p("label"))}`,
        en: `BOE topic alert ${p("code")} ${quote(p("label"))}`,
      };
    case "author":
      return { code, params, es: `Autor: ${p("name")}`, en: `Author: ${p("name")}` };
    case "eurovoc":
      return {
        code,
        params,
        es: `EuroVoc ${p("code")} ${quote(p("label"))}`,
        en: `EuroVoc ${p("code")} ${quote(p("label"))}`,
      };
    case "directory":
      return { code, params, es: `Repertorio EUR-Lex ${p("code")}`, en: `EUR-Lex directory ${p("code")}` };
    case "keyword":
      return {
        code,
        params,
        es: `Palabra clave${p("where") === "title" ? " en el título" : ""}: ${quote(p("phrase"))}`,
        en: `Keyword${p("where") === "title" ? " in the title" : ""}: ${quote(p("phrase"))}`,
      };
    case "model": {
      const score = Number(p("score"));
      return { code, params, es: `Modelo: ${score.toFixed(2).replace(".", ",")}`, en: `Model: ${score.toFixed(2)}` };
    }
    case "fallback":
      return {
        code,
        params,
        es: "Asunto público sin otra área específica",
        en: "Public matter with no other specific area",
      };
    case "topic-keyword":
      return {
        code,
        params,
        es: `Tema ${quote(p("topic"))}: palabra clave ${quote(p("phrase"))}`,
        en: `Topic ${quote(p("topic"))}: keyword ${quote(p("phrase"))}`,
      };
  }
}
