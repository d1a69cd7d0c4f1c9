import { describe, expect, it } from "vitest";
import { legalTexts as en } from "../../content/legal/en.ts";
import { legalTexts as es } from "../../content/legal/es.ts";
import { withDpo } from "./legal-document.tsx";

describe("the privacy policy's data protection officer", () => {
  it("is named after the controller only when one is appointed", () => {
    const sections = es.privacy.sections;
    expect(withDpo(sections, es.dpo, null)).toBe(sections);
    const named = withDpo(sections, es.dpo, "dpd@example.com");
    expect(named[0]!.paragraphs.at(-1)).toBe(es.dpo);
    expect(named[0]!.paragraphs).toHaveLength(sections[0]!.paragraphs.length + 1);
    expect(named.slice(1)).toEqual(sections.slice(1));
    expect(en.dpo).toContain("{dpoEmail}");
    expect(es.dpo).toContain("{dpoEmail}");
  });
});
