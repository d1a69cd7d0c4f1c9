import { defineConfig } from "drizzle-kit";

// Generates the committed SQL migrations (npm run db:generate); the server applies them at start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/.server/db/schema.ts",
  out: "./drizzle",
});
