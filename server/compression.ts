/** Content negotiation for compressed bodies. */

import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = "br" | "gzip" | "identity";

/** Answers for the Accept-Encoding values seen (browsers send a handful): parsed once each. */
const picked = new Map<string, Encoding>();
const maxPicked = 256;

/** The best encoding the client accepts; a q=0 refuses one. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  let encoding = picked.get(acceptEncoding);
  if (encoding === undefined) {
    encoding = parseAcceptEncoding(acceptEncoding);
    if (picked.size >= maxPicked) picked.clear();
    picked.set(acceptEncoding, encoding);
  }
  return encoding;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding {
  let br = false;
  let gz = false;
  for (const part of acceptEncoding.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
    if (refused) continue;
    if (name === "br") br = true;
    else if (name === "gzip" || name === "*") gz = true;
  }
  return br ? "br" : gz ? "gzip" : "identity";
}

const compressibleType = /^(text\/|application\/(json|xml|javascript|manifest\+json)|image\/svg\+xml)/;

export function isCompressible(contentType: string | null | undefined, length: number): boolean {
  return length >= 1024 && !!contentType && compressibleType.test(contentType);
}

/** Dynamic bodies: fast settings, since they are compressed on every request. */
export function compress(body: Buffer, encoding: Exclude<Encoding, "identity">): Promise<Buffer> {
  return encoding === "br"
    ? brotliAsync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      })
    : gzipAsync(body, { level: 6 });
}
