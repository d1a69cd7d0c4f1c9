import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";

describe("platform sign-in configuration", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "auth-config-"));
    dirs.push(dir);
    return dir;
  };

  it("generates AUTH_SECRET once in DATA_DIR and keeps it across starts", () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "auth-secret"), "utf8").trim()).toBe(first.authSecret);
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(first.authSecret);
    expect(first.platformOrgName).toBe("Mi organización");
    expect(first.platformAdminEmail).toBeUndefined();
  });

  it("names the variable when a value is invalid", () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), AUTH_SECRET: "short" })).toThrow(
      "Invalid configuration: AUTH_SECRET must be at least 32 characters",
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), PLATFORM_ADMIN_EMAIL: "nope" })).toThrow(
      "Invalid configuration: PLATFORM_ADMIN_EMAIL must be an email address",
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), PLATFORM_ORG_NAME: "   " })).toThrow(
      "Invalid configuration: PLATFORM_ORG_NAME must not be blank",
    );
  });
});
