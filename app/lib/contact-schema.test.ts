import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contactFieldLimits, contactFieldNames } from "./contact-fields";
import { cleanLine, phonePattern, validateContact } from "./contact-schema";

const valid = { name: "Ana", firstName: "Núñez", email: "ana@example.com", company: "ACME" };

describe("contact schema", () => {
  it("accepts Unicode names with accents, ñ and apostrophes, trimmed", () => {
    const result = validateContact(
      { ...valid, name: "  José-María ", firstName: "O'Connor Ñúñez", company: " Çà " },
      "es",
    );
    expect(result).toMatchObject({
      success: true,
      data: { name: "José-María", firstName: "O'Connor Ñúñez", company: "Çà" },
    });
  });

  it("requires the four required fields, with messages in each language", () => {
    expect(validateContact({}, "es")).toEqual({
      success: false,
      fieldErrors: {
        name: ["Este campo es obligatorio."],
        firstName: ["Este campo es obligatorio."],
        email: ["Este campo es obligatorio."],
        company: ["Este campo es obligatorio."],
      },
    });
    const en = validateContact({ ...valid, name: "   " }, "en");
    expect(en).toEqual({ success: false, fieldErrors: { name: ["This field is required."] } });
  });

  it("enforces the length limits and formats", () => {
    for (const name of contactFieldNames) {
      const tooLong = "a".repeat(contactFieldLimits[name] + 1);
      const result = validateContact({ ...valid, [name]: tooLong }, "en");
      expect(result.success, name).toBe(false);
    }
    expect(validateContact({ ...valid, email: "not-an-email" }, "en").success).toBe(false);
    expect(validateContact({ ...valid, phone: "call me" }, "en").success).toBe(false);
    for (const phone of ["+34 600 000 000", "(020) 7946-0958", "+1 415.555.0100 ext. 12", "600000000"]) {
      expect(phonePattern.test(phone), phone).toBe(true);
    }
  });

  it("strips NUL and control characters; single-line fields lose CR/LF, comments keep newlines", () => {
    const result = validateContact({ ...valid, name: "A\u0000na\r\nBcc: x", comments: "a\r\nb\u0000" }, "en");
    expect(result).toMatchObject({ success: true, data: { name: "Ana Bcc: x", comments: "a\nb" } });
  });

  it("never throws and never lets control characters through (property)", () => {
    const anything = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string()),
      fc.object(),
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            name: anything,
            firstName: anything,
            email: anything,
            company: anything,
            phone: anything,
            comments: anything,
          },
          { requiredKeys: [] },
        ),
        fc.constantFrom("es" as const, "en" as const),
        (input, locale) => {
          const result = validateContact(input, locale);
          if (result.success) {
            for (const name of contactFieldNames) {
              const value = result.data[name];
              expect(value.length).toBeLessThanOrEqual(contactFieldLimits[name]);
              // biome-ignore lint/suspicious/noControlCharactersInRegex: checking control characters are gone
              expect(value).not.toMatch(name === "comments" ? /[\u0000\r]/ : /[\u0000-\u001f]/);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("accepts any reasonable Unicode name (property)", () => {
    fc.assert(
      fc.property(
        fc
          .string({ unit: "grapheme", minLength: 1, maxLength: 60 })
          .filter((s) => s.trim().length > 0 && cleanLine(s) === s.trim()),
        (name) => {
          expect(validateContact({ ...valid, name }, "es").success).toBe(true);
        },
      ),
    );
  });
});
