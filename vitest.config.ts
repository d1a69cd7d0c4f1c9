import { defineConfig } from "vitest/config";

/** Integration tests that add a source or channel to the registries at run time. */
const registryFiles = [
  "tests/integration/sources-plugin.test.ts",
  "tests/integration/channels-registry.test.ts",
  // samlify keeps its schema validator and its XML tooling in module state: beside the other files
  // in one shared module graph its ACS answer failed ERR_INVALID_XML in a whole run (alone it passes).
  "tests/integration/sso-http.test.ts",
];

/** What both integration projects share (they run in one group, so one number of workers). */
const integration = {
  // These files mostly wait (servers starting, jobs, timers, SMTP and HTTP peers): with three
  // at a time a 2-core machine was busy 131 % of 200 % (measured with /usr/bin/time over a
  // whole run), so four; one at a time (the default there) took ~21 minutes.
  maxWorkers: 4,
  sequence: { groupOrder: 1 },
  // Several tests start servers or run the operator commands as processes: a minute each.
  testTimeout: 60_000,
  hookTimeout: 90_000,
  setupFiles: ["tests/support/fail-on-console-error.ts"],
};

export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    // PGlite templates made once per run that new databases start from (faster than initdb).
    globalSetup: ["tests/support/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
          sequence: { groupOrder: 0 },
          // No module mocks here, so the files share their workers' module cache: most of this
          // layer's time was importing the app again for each file (86 s one at a time, isolated;
          // 32 s two at a time, shared).
          maxWorkers: 2,
          isolate: false,
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
          exclude: registryFiles,
          ...integration,
          // Each worker imports the app once for all its files, as in the unit layer: isolated, each
          // of the 66 files imported it again (the layer in a whole run: 756 s isolated, 536 s
          // shared). The files here mock no module and restore what they change in process.env.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // Files that register a plug-in before importing the modules that read the registry when
          // they load (the API's source enums): they need a module graph of their own.
          name: "integration-isolated",
          include: registryFiles,
          ...integration,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // Three files at a time (each its own server and browser): one at a time, the layer alone
          // took over ten minutes; whole runs took 28 min 57 s with three, 29 min 56 s with two.
          maxWorkers: 3,
          // Isolated (the default): sharing imports here measured no gain (e2e layer 672 → 677 s),
          // its files' time is their browsers and servers.
        },
      },
    ],
  },
});
