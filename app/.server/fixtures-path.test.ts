import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  fixturesDir,
  labelledSetPath,
  projectRoot,
  referenceFixturesDir,
  sourcesFixturesDir,
} from "./fixtures-path.ts";

describe("fixture paths", () => {
  it("resolve inside the project, to files that are there", () => {
    expect(existsSync(path.join(projectRoot, "package.json"))).toBe(true);
    for (const dir of [fixturesDir, sourcesFixturesDir, referenceFixturesDir, labelledSetPath]) {
      expect(path.relative(projectRoot, dir).startsWith("..")).toBe(false);
      expect(existsSync(dir)).toBe(true);
    }
    expect(existsSync(path.join(sourcesFixturesDir, "expected.json"))).toBe(true);
  });

  it("keep tracked data out of the runtime folder data/ (deleting it resets an instance, nothing more)", () => {
    const tracked = execFileSync("git", ["ls-files", "data"], { cwd: projectRoot, encoding: "utf8" }).trim();
    expect(tracked).toBe("");
    expect(path.relative(path.join(projectRoot, "data"), labelledSetPath).startsWith("..")).toBe(true);
  });
});
