/**
 * Faults: a process killed between store and send, PostgreSQL restarting under
 * traffic, two instances racing for the same outbox rows, shared rate limits,
 * and which client address the limits key on. Each ends with every accepted
 * request stored once and mailed exactly once.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { validLead, waitFor } from "../support/contact-services.ts";
import { startOwnCluster, testDatabaseUrl } from "../support/postgres.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink.ts";

// Short retries and leases, so that a claim left by a killed process is taken again within seconds.
const fastRetries = { OUTBOX_RETRY_BASE_MS: "200", OUTBOX_RETRY_MAX_MS: "2000", OUTBOX_LEASE_MS: "3000" };
const noLimits = { RATE_LIMIT_PER_MINUTE: "100000", RATE_LIMIT_PER_HOUR: "100000" };

async function post(server: RunningServer, index: number, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/mail/send`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ ...validLead, email: `lead${index}@example.com`, comments: `request ${index}` }),
  });
  const body = (await response.json().catch(() => ({}))) as { id?: string };
  return { status: response.status, id: body.id };
}

/** Every id mailed exactly once, and nothing else mailed. */
async function expectDeliveredOnce(smtp: SmtpSink, ids: string[], timeoutMs = 60_000) {
  const wanted = new Set(ids.map((id) => `contact-${id}@`));
  const delivered = () => smtp.messages.filter((m) => [...wanted].some((w) => m.messageId.includes(w))).length;
  await waitFor(() => delivered() >= ids.length, timeoutMs);
  // Give a duplicate the chance to show up before counting.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const counts = smtp.countByMessageId();
  for (const id of ids) {
    const matches = [...counts].filter(([messageId]) => messageId.includes(`contact-${id}@`));
    expect(matches, `mail for ${id}`).toHaveLength(1);
    expect(matches[0]?.[1], `copies of ${id}`).toBe(1);
  }
}

async function freshDatabase(): Promise<string> {
  const name = `faults_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(testDatabaseUrl as string);
  url.pathname = `/${name}`;
  return url.toString();
}

async function storedCount(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_name like '%request%'",
    );
    const table = tables.rows.find((row) => !row.table_name.includes("outbox"))?.table_name;
    if (!table) throw new Error("no contact request table");
    const result = await client.query<{ n: string }>(`select count(*)::text as n from ${table}`);
    return Number(result.rows[0]?.n);
  } finally {
    await client.end();
  }
}

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

describe("a process killed between store and send", () => {
  it("mails every accepted request exactly once after a restart (SIGKILL)", async () => {
    const smtp = await startSmtpSink({ mode: "refuse" });
    cleanup.push(() => smtp.stop());
    const first = await startServer({ env: { SMTP_URL: smtp.url, ...noLimits, ...fastRetries } });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await post(first, i);
      expect(answer.status).toBe(201);
      ids.push(answer.id as string);
    }
    // No graceful anything: the worker may hold claimed rows.
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    await smtp.setMode("accept");
    const second = await startServer({
      dataDir: first.dataDir,
      env: { SMTP_URL: smtp.url, ...noLimits, ...fastRetries },
    });
    cleanup.push(() => second.stop());
    await expectDeliveredOnce(smtp, ids);
  }, 90_000);
});

describe("rate limits key on the real client", () => {
  it("ignore X-Forwarded-For unless TRUST_PROXY trusts it", async () => {
    const limits = { RATE_LIMIT_PER_MINUTE: "1", RATE_LIMIT_PER_HOUR: "100" };
    const direct = await startServer({ env: limits });
    cleanup.push(() => direct.stop());
    expect((await post(direct, 1, { "x-forwarded-for": "203.0.113.1" })).status).toBe(201);
    expect((await post(direct, 2, { "x-forwarded-for": "203.0.113.2" })).status).toBe(429);

    const proxied = await startServer({ env: { ...limits, TRUST_PROXY: "1" } });
    cleanup.push(() => proxied.stop());
    expect((await post(proxied, 1, { "x-forwarded-for": "203.0.113.1" })).status).toBe(201);
    expect((await post(proxied, 2, { "x-forwarded-for": "203.0.113.2" })).status).toBe(201);
    expect((await post(proxied, 3, { "x-forwarded-for": "203.0.113.1" })).status).toBe(429);
    // A client cannot pick its address by prepending one: the proxy's entry is the last.
    expect((await post(proxied, 4, { "x-forwarded-for": "198.51.100.7, 203.0.113.1" })).status).toBe(429);
  }, 180_000);
});

/** Two servers started at the same moment, each stopped after the test even if the other failed to start. */
async function startTwo(env: Record<string, string>) {
  const started = await Promise.allSettled([startServer({ env }), startServer({ env })]);
  for (const result of started) if (result.status === "fulfilled") cleanup.push(() => result.value.stop());
  const [a, b] = started;
  if (a?.status !== "fulfilled") throw a?.reason;
  if (b?.status !== "fulfilled") throw b?.reason;
  return [a.value, b.value] as const;
}

describe.skipIf(!testDatabaseUrl)("several instances on one PostgreSQL", () => {
  it("store each request once and mail it exactly once while racing for the outbox", async () => {
    const databaseUrl = await freshDatabase();
    const smtp = await startSmtpSink({ mode: "refuse" });
    cleanup.push(() => smtp.stop());
    const env = { DATABASE_URL: databaseUrl, SMTP_URL: smtp.url, ...noLimits, ...fastRetries };
    // Both start at the same moment: migrations run under an advisory lock.
    const [a, b] = await startTwo(env);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post(i % 2 ? a : b, i)));
    expect(answers.map((x) => x.status)).toEqual(Array(30).fill(201));
    await smtp.setMode("accept");
    await expectDeliveredOnce(
      smtp,
      answers.map((x) => x.id as string),
    );
    expect(await storedCount(databaseUrl)).toBe(30);
  }, 120_000);

  it("share their rate limits", async () => {
    const databaseUrl = await freshDatabase();
    const env = { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: "3", RATE_LIMIT_PER_HOUR: "100" };
    const [a, b] = await startTwo(env);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(i % 2 ? a : b, i)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
  }, 60_000);

  const pgBin = process.env.PG_BIN;
  it.skipIf(!pgBin)(
    "survive PostgreSQL restarting while requests arrive",
    async () => {
      // A cluster of this test's own: restarting the shared one would cut the other files' connections.
      const cluster = await startOwnCluster(pgBin as string);
      cleanup.push(async () => cluster.stop());
      const databaseUrl = cluster.url;
      const smtp = await startSmtpSink();
      cleanup.push(() => smtp.stop());
      const server = await startServer({
        env: { DATABASE_URL: databaseUrl, SMTP_URL: smtp.url, ...noLimits, ...fastRetries },
      });
      cleanup.push(() => server.stop());
      const answers: { status: number; id?: string }[] = [];
      let sending = true;
      const traffic = (async () => {
        for (let i = 0; sending; i++) {
          answers.push(await post(server, i).catch(() => ({ status: 0 })));
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      cluster.restart();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      sending = false;
      await traffic;

      const statuses = new Set(answers.map((x) => x.status));
      // Accepted, or told the truth (503) during the outage; never a 500 or a dropped connection.
      for (const status of statuses) expect([201, 503]).toContain(status);
      expect(answers.filter((x) => x.status === 201).length).toBeGreaterThan(10);
      await waitFor(async () => (await fetch(`${server.url}/healthz`)).status === 200, 20_000);
      const accepted = answers.filter((x) => x.status === 201).map((x) => x.id as string);
      await expectDeliveredOnce(smtp, accepted);
      expect(await storedCount(databaseUrl)).toBe(accepted.length);
      expect(server.child.exitCode).toBeNull();
    },
    120_000,
  );
});
