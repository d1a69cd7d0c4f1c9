import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "config-audit-"));

describe("audit and API configuration", () => {
  it("defaults to the contract's retention and 600 API requests a minute", () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.auditRetentionDays).toBe(1825);
    expect(config.apiRateLimitPerMinute).toBe(600);
  });

  it("reads the variables and names the bad one", () => {
    const config = loadConfig({ DATA_DIR: dataDir(), AUDIT_RETENTION_DAYS: "30", API_RATE_LIMIT_PER_MINUTE: "60" });
    expect(config.auditRetentionDays).toBe(30);
    expect(config.apiRateLimitPerMinute).toBe(60);
    expect(() => loadConfig({ DATA_DIR: dataDir(), AUDIT_RETENTION_DAYS: "0" })).toThrow(
      /^Invalid configuration: AUDIT_RETENTION_DAYS/,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), API_RATE_LIMIT_PER_MINUTE: "many" })).toThrow(
      /^Invalid configuration: API_RATE_LIMIT_PER_MINUTE/,
    );
  });
});
