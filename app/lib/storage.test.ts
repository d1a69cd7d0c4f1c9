import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../tests/support/memory-storage.ts";
import { defaultMaxAge, storageItem } from "./storage";

describe("storageItem", () => {
  it("stores typed values with the spec's default maximum age", () => {
    const store = memoryStorage();
    let now = 1_000;
    const item = storageItem<{ mode: string }>("prefs", { storage: () => store, now: () => now });
    item.set({ mode: "dark" });
    expect(item.get()).toEqual({ mode: "dark" });
    const raw = JSON.parse(store.getItem("site:prefs") ?? "{}");
    expect(raw.expiresAt).toBe(1_000 + defaultMaxAge * 1000);
    now = raw.expiresAt - 1;
    expect(item.get()).toEqual({ mode: "dark" });
  });

  it("drops an entry read after its maximum age", () => {
    const store = memoryStorage();
    let now = 0;
    const item = storageItem<number>("n", { storage: () => store, now: () => now, maxAge: 10 });
    item.set(42);
    now = 9_999;
    expect(item.get()).toBe(42);
    now = 10_000;
    expect(item.get()).toBeUndefined();
    expect(store.getItem("site:n")).toBeNull();
  });

  it("survives corrupt entries and missing storage", () => {
    const store = memoryStorage();
    store.setItem("site:x", "{not json");
    expect(storageItem("x", { storage: () => store }).get()).toBeUndefined();
    expect(store.getItem("site:x")).toBeNull();
    const none = storageItem<string>("y", { storage: () => undefined });
    none.set("v");
    expect(none.get()).toBeUndefined();
  });
});
