/** One product name everywhere a user reads it: mails, pages, the API description. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { company } from "../../content/company.ts";
import { digestMail } from "./channels/digest/render.ts";
import { immediateMail } from "./channels/mail/render.ts";

const appDir = path.resolve(import.meta.dirname, "../..");

describe("product name", () => {
  it("alert mails name the product as every page does", () => {
    const payload = {
      email: "ana@example.com",
      language: "es" as const,
      profileName: "Banca",
      officialUrl: "https://www.boe.es/x",
      publishedOn: "2026-04-07",
      documentId: "d1",
      profileId: "p1",
      title: "Orden",
    } as Parameters<typeof immediateMail>[0];
    const mail = immediateMail(payload, { from: "alertas@example.com", siteUrl: "https://x.example", deliveryId: "1" });
    expect(mail.replyTo.name).toBe("Vigía Normativo");
    const digest = digestMail([], {
      from: "alertas@example.com",
      to: "ana@example.com",
      language: "en",
      day: "2026-04-07",
      siteUrl: "https://x.example",
      userId: "u",
    });
    expect(digest.replyTo.name).toBe(company.tradeName);
  });

  it("no source file of the app says RegWatch", () => {
    const offenders: string[] = [];
    for (const entry of readdirSync(appDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|tsx)$/.test(entry.name) || entry.name.endsWith(".test.ts")) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (/RegWatch/i.test(readFileSync(file, "utf8").replace(/regwatch_(alerts|deliveries)/g, "")))
        offenders.push(path.relative(appDir, file));
    }
    expect(offenders).toEqual([]);
  });
});
