import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          // Some unit tests open an in-memory PGlite, which takes seconds on a busy 2-core machine.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ["tests/support/fail-on-console-error.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 90_000,
          setupFiles: ["tests/support/fail-on-console-error.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // One browser at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
