import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // Every route is known at build time; shipping the full manifest avoids
  // the runtime "/__manifest" discovery requests.
  routeDiscovery: { mode: "initial" },
} satisfies Config;
