import { describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { createKernel } from "./kernel.ts";
import { defineDocumentEvents, subscribeDocumentPipeline } from "./pipeline.ts";

const silent = { info() {}, warn() {}, error() {} };
// Jobs off: the kernel never touches the database.
const noDatabase = {} as Database;

describe("the job kernel with jobs off (tests, in-memory runs)", () => {
  it("runs a queue's handler inline on send, and passes its failure to the caller", async () => {
    const kernel = createKernel({ database: noDatabase, log: silent, enabled: false });
    const seen: unknown[] = [];
    kernel.queue<{ n: number }>("q", {}, async (data, job) => {
      if (data.n < 0) throw new Error("negative");
      seen.push([data.n, job.id]);
    });
    kernel.schedule("q", "* * * * *", null, { key: "every" });
    await kernel.start();
    expect(kernel.started).toBe(false);
    expect(await kernel.send("q", { n: 1 })).toBeNull();
    expect(seen).toEqual([[1, "inline"]]);
    await expect(kernel.send("q", { n: -1 })).rejects.toThrow("negative");
    await kernel.stop();
  });

  it("refuses a queue registered twice and a send to an unknown queue", async () => {
    const kernel = createKernel({ database: noDatabase, log: silent, enabled: false });
    kernel.queue("q", {}, async () => {});
    expect(() => kernel.queue("q", {}, async () => {})).toThrow(/registered twice/);
    await expect(kernel.send("nope", {})).rejects.toThrow(/not registered/);
  });
});

describe("the document pipeline", () => {
  it("runs classification then matching for a stored document, and matching for changed labels", async () => {
    const kernel = createKernel({ database: noDatabase, log: silent, enabled: false });
    const events = defineDocumentEvents(kernel, silent);
    const calls: string[] = [];
    subscribeDocumentPipeline(events, {
      classification: { documentStored: async (id) => void calls.push(`topics ${id}`) },
      alerts: { queueMatch: async (id) => void calls.push(`match ${id}`) },
    });
    await events.documentStored.publish({ documentId: "d1", isNew: true });
    await events.labelsChanged.publish({ documentId: "d2" });
    expect(calls).toEqual(["topics d1", "match d1", "match d2"]);
    expect(events.documentStored.subscribers.map((s) => s.name)).toEqual([
      "classification: topics",
      "alerts: matching",
    ]);
  });

  it("stops at a failing subscriber and reports it (the job is retried from the first)", async () => {
    const kernel = createKernel({ database: noDatabase, log: silent, enabled: false });
    const events = defineDocumentEvents(kernel, silent);
    const calls: string[] = [];
    events.documentStored.subscribe([
      { name: "first", handle: async () => void calls.push("first") },
      {
        name: "broken",
        handle: async () => {
          throw new Error("down");
        },
      },
      { name: "last", handle: async () => void calls.push("last") },
    ]);
    await expect(events.documentStored.publish({ documentId: "d", isNew: false })).rejects.toThrow("down");
    expect(calls).toEqual(["first"]);
  });
});
