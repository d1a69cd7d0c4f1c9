/** The built client files, read into memory once at start with their precompressed variants. */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface StaticFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  contentType: string;
  etag: string;
  cacheControl: string;
}

const contentTypes: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
};

export const immutableCache = "public, max-age=31536000, immutable";
const shortCache = "public, max-age=3600";

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** Maps URL paths to files. Lookups are exact, so no path can reach outside the folder. */
export function loadStaticFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const all = new Set(walk(root));
  for (const file of all) {
    if (file.endsWith(".br") || file.endsWith(".gz")) continue;
    const urlPath = `/${path.relative(root, file).split(path.sep).join("/")}`;
    const body = readFileSync(file);
    files.set(urlPath, {
      body,
      br: all.has(`${file}.br`) ? readFileSync(`${file}.br`) : undefined,
      gzip: all.has(`${file}.gz`) ? readFileSync(`${file}.gz`) : undefined,
      contentType: contentTypes[path.extname(file)] ?? "application/octet-stream",
      etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
      // Vite puts content-hashed names under /assets/.
      cacheControl: urlPath.startsWith("/assets/") ? immutableCache : shortCache,
    });
  }
  return files;
}
