import { afterEach, beforeEach, vi } from "vitest";

/** An unexpected console.error fails the test. A test that expects one calls allowConsoleError(). */
let spy: ReturnType<typeof vi.spyOn> | undefined;
let allowed = false;

export function allowConsoleError(): void {
  allowed = true;
}

beforeEach(() => {
  allowed = false;
  spy = vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  const calls = spy?.mock.calls ?? [];
  spy?.mockRestore();
  if (!allowed && calls.length > 0) {
    throw new Error(
      `unexpected console.error: ${calls.map((call: unknown[]) => call.map(String).join(" ")).join("\n")}`,
    );
  }
});
