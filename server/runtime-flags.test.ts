import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverEntry, serverEntryFlags, serverEnvironment, serverNodeFlags } from "./runtime-flags.ts";

describe("server runtime flags", () => {
  it("are the ones npm start and npm run serve use", () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8"));
    const environment = Object.entries(serverEnvironment).map(([name, value]) => `${name}=${value}`);
    const expected = `${environment.join(" ")} node ${[...serverNodeFlags, ...serverEntryFlags].join(" ")} ${serverEntry}`;
    expect(pkg.scripts.serve).toBe(expected);
    expect(pkg.scripts.start.endsWith(`&& ${expected}`)).toBe(true);
  });

  it("are the ones the memory benchmark measures the app with", () => {
    const pkg = JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8"));
    expect(pkg.scripts["bench:memory"]).toBe(`node --expose-gc ${serverNodeFlags.join(" ")} scripts/bench-memory.ts`);
  });

  it("keep the embedded database's WebAssembly on V8's baseline tier from the process's start (decision 0132)", () => {
    // V8 reads --liftoff-only only at its start: set from JavaScript it did nothing, and the
    // optimising compiler took a restarted server on PGlite to 787 MB.
    expect(serverNodeFlags).toContain("--liftoff-only");
    const client = readFileSync(path.join(import.meta.dirname, "../app/.server/db/client.ts"), "utf8");
    expect(client).not.toMatch(/setFlagsFromString/);
  });
});
