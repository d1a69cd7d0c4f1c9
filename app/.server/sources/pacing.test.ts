import { describe, expect, it } from "vitest";
import { loadConfig, parseWatchWindow } from "../config.ts";
import { inWatchWindow } from "./jobs.ts";
import { createSourcePacer, type PacingStore } from "./pacing.ts";

/** Blocks the event loop, as a synchronous parse or an in-process database does. */
function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

describe("source pacer", () => {
  it("keeps the spacing when the event loop was busy (no burst of late timers)", async () => {
    const pacer = createSourcePacer({ perSecond: 10 }); // 100 ms
    const times: number[] = [];
    const waits = Array.from({ length: 5 }, () =>
      pacer.acquire("boe").then((release) => {
        times.push(performance.now());
        release();
      }),
    );
    setTimeout(() => busy(400), 10);
    await Promise.all(waits);
    for (let i = 1; i < times.length; i++) {
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(pacer.spacingMs - 1);
    }
  });

  it("lets one request out at a time and the next one leave the spacing after its answer", async () => {
    const pacer = createSourcePacer({ perSecond: 20 }); // 50 ms
    const first = await pacer.acquire("boe");
    let second = false;
    const next = pacer.acquire("boe").then((release) => {
      second = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    // The first is still out (a slow answer): the second waits however long it takes.
    expect(second).toBe(false);
    const answeredAt = performance.now();
    first();
    (await next)();
    expect(performance.now() - answeredAt).toBeGreaterThanOrEqual(pacer.spacingMs - 1);
  });

  it("lets urgent requests go before waiting ordinary ones, and sources do not wait for each other", async () => {
    const pacer = createSourcePacer({ perSecond: 20 });
    const order: string[] = [];
    const go = (name: string) => (release: () => void) => {
      order.push(name);
      release();
    };
    const all = [
      pacer.acquire("boe").then(go("a")),
      pacer.acquire("boe").then(go("b")),
      pacer.acquire("boe").then(go("c")),
      pacer.acquire("boe", { urgent: true }).then(go("today")),
    ];
    const started = performance.now();
    (await pacer.acquire("cellar"))();
    expect(performance.now() - started).toBeLessThan(pacer.spacingMs);
    await Promise.all(all);
    expect(order).toEqual(["a", "today", "b", "c"]);
  });

  it("waits for the shared store's consent, tells it of each answer, and keeps going when the store fails", async () => {
    let asked = 0;
    const released: string[] = [];
    const store: PacingStore = {
      async claim() {
        asked++;
        if (asked === 1) return { waitMs: 50 };
        if (asked === 3) throw new Error("database down");
        return { token: `t${asked}` };
      },
      async release(_source, token) {
        released.push(token);
      },
    };
    const errors: unknown[] = [];
    const pacer = createSourcePacer({ perSecond: 10, store, onStoreError: (e) => errors.push(e) });
    const started = performance.now();
    (await pacer.acquire("boe"))();
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    (await pacer.acquire("boe"))();
    expect(errors).toHaveLength(1);
    expect(released).toEqual(["t2"]);
  });
});

describe("BOE watch window", () => {
  it("parses weekdays and Madrid times", () => {
    expect(parseWatchWindow("1-6 07:00-10:00")).toEqual({ days: [1, 2, 3, 4, 5, 6], fromMinute: 420, toMinute: 600 });
    expect(parseWatchWindow("00:00-24:00")).toEqual({ days: [0, 1, 2, 3, 4, 5, 6], fromMinute: 0, toMinute: 1440 });
    expect(parseWatchWindow("6-1 07:30-09:00").days).toEqual([6, 0, 1]);
  });

  it("stops the start with one line naming the variable when the window is not one", () => {
    expect(() => loadConfig({ BOE_WATCH_WINDOW: "7-10" })).toThrow(
      /^Invalid configuration: BOE_WATCH_WINDOW must be like/,
    );
    expect(() => loadConfig({ BOE_WATCH_SECONDS: "-1" })).toThrow(/BOE_WATCH_SECONDS/);
  });

  it("tells whether a moment is inside, in Europe/Madrid", () => {
    const window = parseWatchWindow("1-6 07:00-10:00");
    // Wednesday 25 November 2026: 07:30 in Madrid is 06:30 UTC.
    expect(inWatchWindow(window, new Date("2026-11-25T06:30:00Z"))).toBe(true);
    expect(inWatchWindow(window, new Date("2026-11-25T05:59:00Z"))).toBe(false);
    expect(inWatchWindow(window, new Date("2026-11-25T09:00:00Z"))).toBe(false);
    // Sunday 29 November 2026.
    expect(inWatchWindow(window, new Date("2026-11-29T06:30:00Z"))).toBe(false);
  });
});
