import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import { memoryStorage } from "../../tests/support/memory-storage.ts";
import { breakpointClasses, breakpointScript } from "./breakpoints.ts";
import { colorModeScript } from "./color-mode.ts";
import { storageItem } from "./storage.ts";

function runColorModeScript(localStorage: Storage, systemDark: boolean): string | undefined {
  const attributes: Record<string, string> = {};
  const classes = new Set<string>();
  const documentElement = {
    classList: { add: (c: string) => classes.add(c) },
    setAttribute: (name: string, value: string) => {
      attributes[name] = value;
    },
  };
  runInNewContext(colorModeScript, {
    document: { documentElement },
    localStorage,
    window: { matchMedia: () => ({ matches: systemDark }) },
    Date,
    JSON,
  });
  expect(classes.has("js")).toBe(true);
  return attributes["data-bs-theme"];
}

describe("colour mode inline script", () => {
  test("reads what storage.ts writes, and falls back to the system preference", () => {
    const store = memoryStorage();
    expect(runColorModeScript(store, true)).toBe("dark");
    expect(runColorModeScript(store, false)).toBe("light");
    storageItem<string>("color-mode", { storage: () => store }).set("dark");
    expect(runColorModeScript(store, false)).toBe("dark");
    // An expired entry is ignored, as storage.ts would.
    storageItem<string>("color-mode", { storage: () => store }).set("dark", { maxAge: -1 });
    expect(runColorModeScript(store, false)).toBe("light");
  });
});

describe("breakpoint inline script", () => {
  test.each([0, 360, 575, 576, 600, 800, 1000, 1199, 1300, 1400, 1500])(
    "matches breakpointClasses at %i px",
    (width) => {
      const body = { className: "keep-me bp-old" };
      const listeners: string[] = [];
      runInNewContext(breakpointScript, {
        document: { body },
        window: { innerWidth: width, addEventListener: (type: string) => listeners.push(type) },
      });
      const classes = body.className.split(" ");
      expect(classes).toContain("keep-me");
      expect(classes.filter((c) => c.startsWith("bp-")).sort()).toEqual(breakpointClasses(width).sort());
      expect(listeners).toEqual(["resize"]);
    },
  );

  test("exactly one active class: the largest breakpoint whose minimum is at most the width", () => {
    expect(breakpointClasses(991)[0]).toBe("bp-md");
    expect(breakpointClasses(992)[0]).toBe("bp-lg");
    expect(breakpointClasses(1400).filter((c) => !c.endsWith("-up") && !c.endsWith("-down"))).toEqual(["bp-xxl"]);
  });
});
