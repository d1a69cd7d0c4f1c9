import { parseFeed } from "@rowanmanning/feed-parser";
import { XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { reasonText, writeProfileAtom, xmlSafe } from "./atom.ts";

describe("a profile's Atom feed", () => {
  const entry = {
    matchId: "00000000-0000-4000-8000-000000000001",
    matchedAt: new Date("2026-03-02T08:00:00Z"),
    reasons: ["area:aml,grants", "relevance:high", 'query:"blanqueo" -anuncio'],
    documentId: "00000000-0000-4000-8000-00000000000d",
    title: 'Orden <b>"x"</b> & ]]> fin\u0001\u000b\uD800',
    publishedOn: "2026-03-01",
    officialUrl: "https://www.boe.es/diario_boe/txt.php?id=BOE-A-2026-1&x=1",
    sourceId: "BOE-A-2026-1",
  };

  it("is well-formed XML and reads back with a feed parser, text intact once XML's forbidden characters are out", () => {
    const xml = writeProfileAtom({ profileName: "AML & <ayudas>", locale: "es" }, [entry], {
      feedId: "00000000-0000-4000-8000-0000000000ff",
      siteUrl: "https://vigia.example/",
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    const feed = parseFeed(xml);
    expect(feed.title).toBe("AML & <ayudas> · alertas de Vigía Normativo");
    const [item] = feed.items;
    expect(item?.title).toBe('Orden <b>"x"</b> & ]]> fin');
    expect(item?.url).toBe(`https://vigia.example/app/documents/${entry.documentId}`);
    expect(item?.id).toBe(`urn:uuid:${entry.matchId}`);
    expect(item?.published?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(item?.updated?.toISOString()).toBe("2026-03-02T08:00:00.000Z");
    expect(item?.description).toBe(
      'Publicado el 2026-03-01. Por qué: área Prevención del blanqueo, Ayudas y subvenciones; relevancia Alta; consulta «"blanqueo" -anuncio»',
    );
  });

  it("names reasons in the holder's language and keeps unknown ones as they are", () => {
    expect(reasonText("jurisdiction:ES-CT", "en")).toBe("jurisdiction Catalonia");
    expect(reasonText("all", "en")).toBe("the profile has no filters");
    expect(reasonText("law:BOE-A-2003-20977#a13", "es")).toBe("law:BOE-A-2003-20977#a13");
    expect(xmlSafe("a\u0000b\tc\n\uFFFEd😀")).toBe("ab\tc\nd😀");
  });
});
