import { describe, expect, it } from "vitest";
import { reminderMail } from "./reminder-mail.ts";

const item = {
  kind: "obligation" as const,
  title: 'Identificar al titular <real> "ya"',
  documentTitle: "Real Decreto 1/2026",
  documentId: "7f1c2d4e-0000-4000-8000-000000000001",
  dueOn: "2026-12-01",
};

describe("reminderMail", () => {
  it("speaks the recipient's language, links to the document and escapes the HTML", () => {
    const es = reminderMail(item, { language: "es", siteUrl: "https://vigia.example/", today: "2026-11-28" });
    expect(es.subject).toBe('Recordatorio: vence el 1 de diciembre de 2026: Identificar al titular <real> "ya"');
    expect(es.text).toContain("https://vigia.example/app/documents/7f1c2d4e-0000-4000-8000-000000000001#obligations");
    expect(es.text).toContain("Tienes pendiente la obligación");
    expect(es.html).toContain("&#60;real&#62;");
    expect(es.html).not.toContain("<real>");
    const en = reminderMail(
      { ...item, kind: "triage" },
      { language: "en", siteUrl: "https://vigia.example", today: "2026-12-01" },
    );
    expect(en.subject).toBe('Reminder: due today: Identificar al titular <real> "ya"');
    expect(en.notice).toBe('Reminder (due today): Identificar al titular <real> "ya"');
    expect(en.text).toContain("#triage");
  });

  it("keeps the subject to one line", () => {
    const mail = reminderMail(
      { ...item, title: "a\r\nBcc: x@example.com" },
      { language: "en", siteUrl: "https://v", today: "2026-11-01" },
    );
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });
});
