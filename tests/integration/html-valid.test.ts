/** Every public page as served is valid HTML (tests/support/html-validator.ts); the platform's signed-in pages are checked in tests/e2e/platform.test.ts. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserHeaders, htmlProblems } from "../support/html-validator.ts";
import { type RunningServer, startServer } from "../support/server.ts";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

describe("the HTML validator", () => {
  it("finds a real problem (the check can fail)", async () => {
    const problems = await htmlProblems(
      '<!doctype html><html lang="en"><head><title>x</title></head><body><ul><div id="a">x</div></ul><p id="a">y</p></body></html>',
    );
    expect(problems.some((problem) => problem.startsWith("element-permitted-content"))).toBe(true);
    expect(problems.some((problem) => problem.startsWith("no-dup-id"))).toBe(true);
  });

  it.each([
    "/",
    "/en",
    "/privacidad",
    "/en/privacy",
    "/aviso-legal",
    "/en/legal-notice",
    "/no-existe",
    "/en/missing",
    "/app/login",
    "/app/reset",
  ])("finds nothing wrong in %s", async (pathname) => {
    const response = await fetch(`${server.url}${pathname}`, { headers: browserHeaders });
    expect(response.headers.get("content-type")).toMatch(/text\/html/);
    expect(await htmlProblems(await response.text())).toEqual([]);
  });
});
