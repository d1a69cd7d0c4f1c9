/** What the channels say, pinned: the move of their messages into the catalogs (issue 24) changed no byte of any mail or chat message. */
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../../../lib/escape-html.ts";
import type { MatchWhy } from "../why.ts";
import { digestMail } from "./digest/render.ts";
import { immediateMail } from "./mail/render.ts";
import { shareMail } from "./mail/share.ts";
import { slackMessage } from "./slack/index.ts";
import { teamsMessage } from "./teams/index.ts";

const siteUrl = "https://vigia.example/";
const alert = {
  userId: "u1",
  documentId: "d 1",
  profileId: "p/1",
  title: 'Orden <HAC> & "más"',
  email: "ana@example.com",
  profileName: "Banca «AML»",
  officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2026-1",
  publishedOn: "2026-11-23",
};
const chat = {
  url: "https://hooks.slack.com/services/T/B/x",
  documentId: "d1",
  profileId: "p1",
  profileName: "Equipo <AML>",
  title: "Ley *1/2026* de <pruebas>",
  officialUrl: "https://www.boe.es/x",
  publishedOn: "2026-11-23",
};

/** Why a document matched (decision 0148), as matching stores it. */
const why: MatchWhy = {
  via: "profile",
  profile: { id: "p1", name: "Banca", group: false },
  areas: [
    {
      id: "banking",
      evidence: [
        { es: "Palabra clave: «entidades de crédito»", en: "Keyword: «entidades de crédito»" },
        { es: "BOE materia 60 «Activos financieros»", en: "BOE subject 60 «Activos financieros»" },
      ],
    },
  ],
  terms: ["solvencia", "<b>"],
  filters: { relevance: "high" },
};

describe("channel messages", () => {
  for (const language of ["es", "en"] as const) {
    it(`render the same mails and chat messages in ${language}`, () => {
      expect(
        immediateMail({ ...alert, language }, { from: "alertas@vigia.example", siteUrl, deliveryId: "abc-1" }),
      ).toMatchSnapshot();
      expect(
        immediateMail({ ...alert, language, officialUrl: "" }, { from: "a@vigia.example", siteUrl, deliveryId: "x" }),
      ).toMatchSnapshot();
      for (const n of [1, 2])
        expect(
          digestMail(
            Array.from({ length: n }, (_, i) => ({
              documentId: `d${i}`,
              title: `Documento <${i}>`,
              profiles: [
                { id: "p1", name: "Uno & dos" },
                { id: "p2", name: "Tres" },
              ],
            })),
            { from: "a@vigia.example", to: "b@example.com", language, day: "2026-11-23", siteUrl, userId: "u:1" },
          ),
        ).toMatchSnapshot();
      for (const format of ["slack", "teams"] as const) {
        const payload = { ...chat, format, language };
        const render = format === "slack" ? slackMessage : teamsMessage;
        expect(render(payload, siteUrl)).toMatchSnapshot();
        expect(
          render({ ...payload, sharedBy: "Ana <ana@example.com>", officialUrl: "javascript:alert(1)" }, siteUrl),
        ).toMatchSnapshot();
      }
      for (const member of [true, false])
        for (const message of ["", "Míralo <hoy>"])
          expect(
            shareMail({
              member,
              from: "a@vigia.example",
              to: "x@example.com",
              senderEmail: "ana@example.com",
              language,
              message,
              document: {
                id: "d1",
                title: "Orden <1>",
                officialUrl: "https://www.boe.es/x",
                summary: member ? "" : "Resumen & más",
              },
              siteUrl,
              shareId: "s-1",
            }),
          ).toMatchSnapshot();
    });
  }

  for (const language of ["es", "en"] as const) {
    it(`say why a document matched in every channel, in ${language}`, () => {
      const mail = immediateMail({ ...alert, language, why }, { from: "a@vigia.example", siteUrl, deliveryId: "w" });
      expect(mail).toMatchSnapshot();
      const sentenceFor = (profile: string) =>
        language === "es"
          ? `Coincide con tu perfil «${profile}»: área Banca y entidades de crédito (palabra clave: «entidades de crédito»; BOE materia 60 «Activos financieros»); términos: «solvencia», «<b>»; relevancia alta`
          : `Matches your profile “${profile}”: area Banking and credit institutions (keyword: «entidades de crédito»; BOE subject 60 «Activos financieros»); terms: “solvencia”, “<b>”; high relevance`;
      const sentence = sentenceFor(alert.profileName);
      expect(mail.text).toContain(sentence);
      expect(mail.html).toContain(escapeHtml(sentence));
      for (const format of ["slack", "teams"] as const) {
        const render = format === "slack" ? slackMessage : teamsMessage;
        const message = render({ ...chat, format, language, why }, siteUrl);
        expect(message).toMatchSnapshot();
        expect(JSON.stringify(message)).toContain(JSON.stringify(sentenceFor(chat.profileName)).slice(1, -1));
      }
      const digest = digestMail(
        [{ documentId: "d0", title: "Documento", profiles: [{ id: "p1", name: "Banca", why: sentence }] }],
        { from: "a@vigia.example", to: "b@example.com", language, day: "2026-11-23", siteUrl, userId: "u:1" },
      );
      expect(digest).toMatchSnapshot();
      expect(digest.text).toContain(sentence);
    });
  }
});
