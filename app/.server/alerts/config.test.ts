import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "alerts-config-"));

describe("alerts configuration", () => {
  it("has defaults and reads its variables", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).alerts).toEqual({
      retryBaseMs: 5000,
      retryMaxMs: 1_800_000,
      maxAttempts: 12,
      retryWindowMs: 86_400_000,
      allowPrivateWebhookUrls: false,
      maxWebhooksPerOrganization: 25,
      maxFollowsPerOrganization: 200,
    });
    const set = loadConfig({
      DATA_DIR: dataDir(),
      ALERTS_RETRY_BASE_MS: "100",
      ALERTS_RETRY_MAX_MS: "50",
      ALERTS_MAX_ATTEMPTS: "3",
      ALERTS_RETRY_WINDOW_MS: "60000",
      WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
      WEBHOOKS_MAX_PER_ORGANIZATION: "3",
      FOLLOWS_MAX_PER_ORGANIZATION: "7",
    });
    expect(set.alerts).toEqual({
      retryBaseMs: 100,
      retryMaxMs: 100,
      maxAttempts: 3,
      retryWindowMs: 60_000,
      allowPrivateWebhookUrls: true,
      maxWebhooksPerOrganization: 3,
      maxFollowsPerOrganization: 7,
    });
  });
  it("names the bad variable", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), WEBHOOKS_ALLOW_PRIVATE_URLS: "yes" })).toThrow(
      "Invalid configuration: WEBHOOKS_ALLOW_PRIVATE_URLS must be 0 or 1",
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), ALERTS_MAX_ATTEMPTS: "0" })).toThrow(/ALERTS_MAX_ATTEMPTS/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), WEBHOOKS_MAX_PER_ORGANIZATION: "0" })).toThrow(
      /WEBHOOKS_MAX_PER_ORGANIZATION/,
    );
  });
});
