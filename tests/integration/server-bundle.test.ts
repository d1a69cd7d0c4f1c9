/**
 * The server bundle is held in memory as text for the process's life (V8 compiles its functions
 * lazily from it). One character above U+00FF anywhere in it, even in a comment, makes V8 keep all
 * of it two bytes a character: 4.8 MB instead of 2.3 MB. vite.config.ts escapes the output to
 * ASCII and drops JSDoc comments; this checks the build that the tests run.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { projectRoot } from "../support/server.ts";

it("the built server bundle is one byte a character", () => {
  const text = readFileSync(path.join(projectRoot, "build/server/index.js"), "utf8");
  const wide: string[] = [];
  for (let i = 0; i < text.length && wide.length < 5; i++) {
    if (text.charCodeAt(i) > 0xff) wide.push(JSON.stringify(text.slice(Math.max(0, i - 40), i + 10)));
  }
  expect(wide, "characters above U+00FF, in context").toEqual([]);
});

it("loads what only some processes or requests need on demand, not at start", () => {
  // Heap each holds once loaded (measured one at a time): zod's locale index 1.3 MB, PGlite 1 MB
  // (and drizzle's PGlite driver) on PostgreSQL, qrcode 1 MB. nodemailer (5 MB) stays loaded at
  // start: every instance sends mail, and loading it on the first send widened the window in which
  // a database outage falls between a mail's claim and its "sent" mark. SAML's libraries (samlify,
  // xmllint compiled to JavaScript, XML signatures): about 7 MB of heap and 15 MB of RSS for a
  // feature few organisations switch on (decision 0158); they load with the first SAML request.
  const text = readFileSync(path.join(projectRoot, "build/server/index.js"), "utf8");
  const staticImports = [...text.matchAll(/^import\s[^;]*?from\s*"([^"]+)"/gm)].map((match) => match[1]);
  expect(staticImports.length).toBeGreaterThan(10);
  const onDemand = [
    "zod/locales",
    "@electric-sql/pglite",
    "@electric-sql/pglite/contrib/pg_trgm",
    "@electric-sql/pglite/contrib/unaccent",
    "drizzle-orm/pglite",
    "qrcode",
    "samlify",
  ];
  expect(staticImports.filter((name) => onDemand.includes(name ?? ""))).toEqual([]);
  expect(text).not.toContain('require("node-xmllint")');
  for (const name of ["@electric-sql/pglite", "qrcode"]) expect(text).toContain(`import("${name}")`);
});
