import { defineConfig } from "vitest/config";

/**
 * The fault suite (issue 42): backups and restores, upgrades from the previous release, AUTH_SECRET
 * rotation, processes killed at each step of the pipeline. `npm run test:faults`; not part of
 * `npm test` (CI's time is spent), run on its own (docs/operations.md says what it guarantees).
 * Needs `npm run build` (the tests start the built server).
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    globalSetup: ["tests/support/global-setup.ts"],
    include: ["tests/faults/**/*.test.ts"],
    setupFiles: ["tests/support/fail-on-console-error.ts"],
    // Each file starts and kills servers: two at a time on a 2-core machine.
    maxWorkers: 2,
    // A BOE day ingested twice at the sources' pace (600 ms a request) beside another file: minutes.
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
