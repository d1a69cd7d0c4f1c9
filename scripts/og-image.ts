/**
 * Draws the social share image (public/og-image.png, 1200×630) in Chromium from the
 * markup below, so its claims change with the site's copy: `npm run og-image`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { launchBrowser } from "../tests/support/browser.ts";

const root = path.resolve(import.meta.dirname, "..");
const icon = readFileSync(path.join(root, "public/favicon.svg"), "utf8");
// The sources the platform ingests (ARCHITECTURE.md, INGEST_SOURCES) and the feeds an admin adds.
const chips = ["BOE", "DOUE · EUR-Lex", "RSS de supervisores"];

const html = `<!doctype html><html lang="es"><head><meta charset="utf-8"><style>
  * { box-sizing: border-box; margin: 0; }
  body { width: 1200px; height: 630px; padding: 104px 90px; color: #fff;
    font-family: "DejaVu Sans", sans-serif;
    background: linear-gradient(135deg, #0b3d5c 0%, #0d5a8c 55%, #0f766e 100%); }
  .brand { display: flex; align-items: center; gap: 24px; font-size: 48px; font-weight: 700; }
  .brand svg { width: 84px; height: 84px; }
  h1 { margin-top: 52px; font-size: 64px; line-height: 1.05; max-width: 900px; }
  p { margin-top: 28px; font-size: 30px; color: #cfe6f5; }
  ul { display: flex; gap: 16px; margin-top: 52px; padding: 0; list-style: none; }
  li { border: 2px solid rgba(255,255,255,.55); border-radius: 999px; padding: 8px 22px; font-size: 26px; font-weight: 700; }
</style></head><body>
  <div class="brand">${icon}<span>Vigía Normativo</span></div>
  <h1>Vigilancia regulatoria en tiempo real</h1>
  <p lang="en">Real-time regulatory monitoring</p>
  <ul>${chips.map((chip) => `<li>${chip}</li>`).join("")}</ul>
</body></html>`;

const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(html);
  await page.screenshot({ path: path.join(root, "public/og-image.png"), type: "png" });
  console.log("wrote public/og-image.png");
} finally {
  await browser.close();
}
