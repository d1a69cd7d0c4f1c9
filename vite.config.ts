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
  environments: { ssr: { build: { rolldownOptions: { input: "./app/.server/app.ts" } } } },
}));
