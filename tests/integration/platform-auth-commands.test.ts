/** org:create and user:reset-mfa on the embedded database of a temporary DATA_DIR. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { run as orgCreate } from "../../scripts/platform/org-create.ts";
import { run as resetMfa } from "../../scripts/platform/user-reset-mfa.ts";

describe("operator commands", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "auth-commands-"));
  const saved = { ...process.env };
  let out = "";
  let err = "";
  beforeAll(() => {
    process.env.DATA_DIR = dataDir;
    process.env.SITE_URL = "https://platform.example.com";
    delete process.env.DATABASE_URL;
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      err += String(chunk);
      return true;
    });
  });
  afterAll(() => {
    vi.restoreAllMocks();
    process.env = saved;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("org:create prints the owner's invitation link; bad arguments get usage and exit 2", async () => {
    expect(await orgCreate(["--name", "Acme", "--admin-email", "ana@acme.example", "--locale", "en"])).toBe(0);
    expect(out).toMatch(/https:\/\/platform\.example\.com\/app\/invite\/[\w-]{20,}/);
    expect(await orgCreate(["--name", "Acme", "--admin-email", "not-an-email"])).toBe(2);
    expect(err).toContain("--admin-email must be an email address");
    expect(await orgCreate(["--admin-email", "ana@acme.example"])).toBe(2);
    expect(err).toContain("--name is required");
  }, 60_000);

  it("user:reset-mfa names an unknown user (exit 1) and needs --email (exit 2)", async () => {
    expect(await resetMfa(["--email", "nobody@acme.example"])).toBe(1);
    expect(err).toContain("No user with the email nobody@acme.example");
    expect(await resetMfa([])).toBe(2);
  }, 60_000);
});
