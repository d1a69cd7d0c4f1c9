/**
 * Issue 22, finding 7: the setup, invitation and password-reset flows driven through the running
 * production server with its log at trace level (every request logged), plus wrong tokens on the
 * same routes: no token appears anywhere in what the process wrote. Needs `npm run build`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptInvitationOverHttp, httpClient, setupOwnerOverHttp } from "../support/http-session.ts";
import { type RunningServer, startServer } from "../support/server.ts";

/** Quoted-printable soft breaks and escapes undone, so links in the .eml files read whole. */
function mailTexts(dataDir: string): string {
  const dir = path.join(dataDir, "mail");
  if (!existsSync(dir)) return "";
  return readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .map((name) =>
      readFileSync(path.join(dir, name), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    )
    .join("\n");
}

async function waitForLink(dataDir: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const found = mailTexts(dataDir).match(pattern)?.[0];
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail with ${pattern}`);
}

describe("no token in the log", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ env: { LOG_LEVEL: "trace" }, waitUntilHealthy: false });
    // Its own deadline: a cold start on a loaded machine takes over a minute.
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      if (
        await fetch(`${server.url}/healthz`).then(
          (r) => r.status === 200,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`server did not become healthy:\n${server.output.join("\n")}`);
  }, 250_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("drives setup, invitation and reset; the log holds none of their tokens, at any level", async () => {
    const base = server.url;
    const tokens: string[] = [];
    const setupUrl = readFileSync(path.join(server.dataDir, "setup-url.txt"), "utf8").trim();
    tokens.push(setupUrl.split("/").at(-1) ?? "");
    await (await fetch(setupUrl)).text();
    const owner = await setupOwnerOverHttp(base, server.dataDir);

    const invited = await owner.request("/app/admin/members", {
      form: { intent: "invite", email: "bea@example.com", role: "member", locale: "es" },
    });
    expect(invited.status).toBe(200);
    const invitePath = await waitForLink(server.dataDir, /\/app\/invite\/[\w-]+/);
    tokens.push(invitePath.split("/").at(-1) ?? "");
    await (await fetch(`${base}${invitePath}`)).text();
    await acceptInvitationOverHttp(base, `${base}${invitePath}`, "Bea");

    const anonymous = httpClient(base);
    expect((await anonymous.request("/app/reset", { form: { email: "bea@example.com" } })).status).toBe(200);
    const resetPath = await waitForLink(server.dataDir, /\/app\/reset\/[\w%.-]+/);
    tokens.push(decodeURIComponent(resetPath.split("/").at(-1) ?? ""), resetPath.split("/").at(-1) ?? "");
    await (await anonymous.request(resetPath)).text();
    const reset = await anonymous.request(resetPath, { form: { password: "nueva-clave-larga-del-martes-31" } });
    expect([302, 303]).toContain(reset.status);

    // Used, wrong and malformed tokens, and tokens in query strings, are logged too (refusals, 404s).
    const wrong = ["Wr0ngT0kenWr0ngT0kenWr0ngT0ken12", "an0therWr0ngT0kenan0therWr0ngT0k"];
    tokens.push(...wrong);
    for (const pathname of [
      `/app/setup/${tokens[0]}`,
      invitePath,
      `/app/invite/${wrong[0]}`,
      `/app/reset/${wrong[1]}`,
      `/app/setup/${wrong[0]}?next=/app`,
      `/app/api/auth/reset-password/${wrong[1]}?callbackURL=/app`,
      `/app/api/auth/verify-email?token=${wrong[0]}`,
    ]) {
      await (await fetch(`${base}${pathname}`)).text();
      await (await anonymous.request(pathname, { form: { password: "otra-clave-larga-del-jueves-44" } })).text();
    }

    await server.stop();
    const output = server.output.join("\n");
    expect(output).toContain('"url":"/app/invite/[redacted]"');
    expect(output).toContain('"url":"/app/reset/[redacted]"');
    expect(output).toContain('"url":"/app/setup/[redacted]"');
    for (const token of tokens) {
      expect(token.length).toBeGreaterThan(20);
      expect(output).not.toContain(token);
    }
  }, 120_000);
});
