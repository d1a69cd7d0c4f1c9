/** Configuration errors stop the start with one clear line naming the variable. */
import { describe, expect, it } from "vitest";
import { startServer } from "../support/server";

describe("start-up", () => {
  it.each([
    ["PORT", "http"],
    ["SITE_URL", "localhost"],
    ["DATABASE_URL", "mysql://x"],
  ])("refuses %s=%s with one line", async (name, value) => {
    const server = await startServer({ env: { [name]: value }, waitUntilHealthy: false });
    const code = await new Promise<number | null>((resolve) => server.child.once("exit", resolve));
    expect(code).toBe(1);
    expect(server.output.filter(Boolean)).toHaveLength(1);
    expect(server.output[0]).toMatch(new RegExp(`^Invalid configuration: ${name} `));
  });

  it("does not log secrets", async () => {
    const server = await startServer({ env: { SMTP_URL: "smtp://user:very-secret-pw@127.0.0.1:2525" } });
    await server.stop();
    expect(server.output.join("\n")).not.toContain("very-secret-pw");
    expect(server.output.join("\n")).toContain("listening");
  });
});
