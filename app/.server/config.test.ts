import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, describeConfig, loadConfig } from "./config.ts";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "config-test-"));

describe("loadConfig", () => {
  it("applies the contract's defaults", () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.port).toBe(3000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.siteUrl).toBe("http://localhost:3000");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect(config.trustProxy).toBe(0);
    expect(config.leadRetentionDays).toBe(730);
    expect(config.mailTo).toMatch(/@/);
  });

  it("derives SITE_URL from PORT and strips a trailing slash from an explicit one", () => {
    expect(loadConfig({ PORT: "8080", DATA_DIR: dataDir() }).siteUrl).toBe("http://localhost:8080");
    expect(loadConfig({ SITE_URL: "https://example.es/", DATA_DIR: dataDir() }).siteUrl).toBe("https://example.es");
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "", DATA_DIR: dataDir() }).port).toBe(3000);
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["SITE_URL", "not a url"],
    ["SITE_URL", "ftp://example.com"],
    ["DATABASE_URL", "mysql://localhost/db"],
    ["SMTP_URL", "http://mail.example.com"],
    ["MAIL_TO", "nobody"],
    ["TRUST_PROXY", "-1"],
    ["LOG_LEVEL", "loud"],
  ])("stops with one line naming %s when it is %j", (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value, DATA_DIR: dataDir() });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain(name);
    expect(message).not.toContain("\n");
  });

  it("keeps a generated form secret in DATA_DIR across starts", () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.formSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.formSecret).toBe(first.formSecret);
    expect(readFileSync(path.join(dir, "form-secret"), "utf8").trim()).toBe(first.formSecret);
  });

  it("never describes secrets", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      DATABASE_URL: "postgres://app:db-pass-123@db.internal:5432/site",
      SMTP_URL: "smtp://mailer:smtp-pass-456@smtp.internal:587",
      FORM_SECRET: "x".repeat(40),
    });
    const described = JSON.stringify(describeConfig(config));
    expect(described).not.toContain("db-pass-123");
    expect(described).not.toContain("smtp-pass-456");
    expect(described).not.toContain("x".repeat(40));
    expect(described).toContain("db.internal");
  });
});
