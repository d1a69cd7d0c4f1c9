/**
 * `npm run screenshots`: builds if needed, starts the production server and
 * captures the home and legal pages in both languages at 390 and 1440 px, light and dark, into screenshots/.
 */
import { execSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { launchBrowser, visitorUserAgent } from "../tests/support/browser.ts";
import { startServer } from "../tests/support/server.ts";

if (!existsSync("build/server/index.js") || !existsSync("build/client")) {
  execSync("npm run build", { stdio: "inherit" });
}

const pages = [
  ["home-es", "/"],
  ["home-en", "/en"],
  ["legal-es", "/aviso-legal"],
  ["legal-en", "/en/legal-notice"],
  ["privacy-es", "/privacidad"],
  ["privacy-en", "/en/privacy"],
] as const;
const widths = [390, 1440] as const;
const schemes = ["light", "dark"] as const;

mkdirSync("screenshots", { recursive: true });
const server = await startServer({ env: { LOG_LEVEL: "warn" } });
const browser = await launchBrowser();
try {
  for (const [name, path] of pages) {
    for (const width of widths) {
      for (const colorScheme of schemes) {
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          userAgent: visitorUserAgent(browser),
          colorScheme,
          // Final state of the scroll-in animations, without scrolling through the page.
          reducedMotion: "reduce",
          locale: name.endsWith("en") ? "en-GB" : "es-ES",
        });
        const page = await context.newPage();
        await page.goto(`${server.url}${path}`, { waitUntil: "networkidle" });
        const file = `screenshots/${name}-${width}-${colorScheme}.png`;
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
        await context.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
