/**
 * The kernel with jobs on (pg-boss on PGlite): the pipeline's document-stored event is a queue
 * whose job runs the subscribers in order, once per document even when published twice at once,
 * and several capabilities' queues and schedules live on the one client.
 */
import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { openDatabase } from "../../app/.server/db/client.ts";
import { createKernel } from "../../app/.server/kernel/kernel.ts";
import { defineDocumentEvents, subscribeDocumentPipeline } from "../../app/.server/kernel/pipeline.ts";

const silent = { info() {}, warn() {}, error() {} };

it("delivers document-stored to its subscribers in order through the job queue", async () => {
  const database = await openDatabase({});
  const kernel = createKernel({ database, log: silent });
  const events = defineDocumentEvents(kernel, silent);
  const calls: string[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  subscribeDocumentPipeline(events, {
    classification: {
      async documentStored(id) {
        calls.push(`topics ${id}`);
        if (id === "held") await gate;
      },
    },
    alerts: { queueMatch: async (id) => void calls.push(`match ${id}`) },
  });
  kernel.queue("other-capability", {}, async () => {});
  kernel.schedule("other-capability", "0 * * * *", null, { key: "hourly" });
  try {
    await kernel.start();
    expect(kernel.started).toBe(true);
    await events.documentStored.publish({ documentId: "d1", isNew: true });
    await expect.poll(() => calls, { timeout: 20_000, interval: 50 }).toEqual(["topics d1", "match d1"]);
    // While one runs, one more is queued per document; further publications add nothing.
    await events.documentStored.publish({ documentId: "held", isNew: true });
    await expect.poll(() => calls.length, { timeout: 20_000, interval: 50 }).toBe(3);
    await events.documentStored.publish({ documentId: "held", isNew: false });
    await events.documentStored.publish({ documentId: "held", isNew: false });
    release();
    await expect.poll(() => calls.filter((c) => c === "match held").length, { timeout: 20_000 }).toBe(2);
    await events.labelsChanged.publish({ documentId: "d2" });
    await expect.poll(() => calls.at(-1), { timeout: 20_000, interval: 50 }).toBe("match d2");
    // pg-boss's own queues (`__pgboss__…`) aside.
    const queues = await database.rows<{ name: string }>(
      sql`select name from pgboss.queue where name not like '\_\_pgboss%' order by name`,
    );
    expect(queues.map((q) => q.name)).toEqual(["event-document-stored", "event-labels-changed", "other-capability"]);
    const schedules = await database.rows<{ name: string; timezone: string }>(
      sql`select name, timezone from pgboss.schedule`,
    );
    expect(schedules).toEqual([{ name: "other-capability", timezone: "Europe/Madrid" }]);
  } finally {
    release();
    await kernel.stop();
    await database.close();
  }
}, 120_000);
