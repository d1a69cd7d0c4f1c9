/** `npm start` on a fresh clone: build once when there is no build yet. */
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

if (!existsSync("build/server/index.js") || !existsSync("build/main.js") || !existsSync("build/client")) {
  console.log("No build found: building the site first.");
  execSync("npm run build", { stdio: "inherit" });
}
