import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// React, React DOM and React Router load on every page: one chunk instead of a
// dozen small ones means fewer requests before the page can hydrate.
const framework =
  /node_modules[\\/](react|react-dom|react-router|scheduler|turbo-stream|cookie|set-cookie-parser)[\\/]/;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouter()],
  resolve: { tsconfigPaths: true },
  css: {
    preprocessorOptions: {
      scss: { quietDeps: true, silenceDeprecations: ["import", "global-builtin", "color-functions", "if-function"] },
    },
  },
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: isSsrBuild
      ? {}
      : { output: { codeSplitting: { groups: [{ name: "framework", test: framework }] } } },
  },
  // The server build's entry is the app as the process sees it (services, router
  // context, Fetch handler); it imports the routes through React Router's virtual module.
  // The server keeps its bundle's text in memory for the process's life (V8 compiles functions
  // lazily from it). Escaped to ASCII and without JSDoc comments (where the rest of the non-ASCII
  // characters were), V8 holds it one byte a character: 2.3 MB instead of 4.8 MB.
  environments: {
    ssr: {
      build: {
        rolldownOptions: {
          input: "./app/.server/app.ts",
          output: { charset: "ascii", comments: { jsdoc: false, legal: true, annotation: true } },
        },
      },
    },
  },
}));
