import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, HttpError } from "./http-client";

/** A real HTTP peer that answers each path with a scripted list of statuses. */
let server: Server;
let baseURL: string;
const hits = new Map<string, number>();
const scripts: Record<string, number[]> = {
  "/flaky": [503, 200],
  "/always-503": [503, 503, 503],
  "/teapot": [418, 200],
  "/bad-request": [422],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    const count = hits.get(key) ?? 0;
    hits.set(key, count + 1);
    const status = scripts[req.url ?? ""]?.[count] ?? 200;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(status >= 400 ? { statusCode: status, statusMessage: `scripted ${status}` } : { ok: true }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("http client", () => {
  it("retries a GET once on a retryable status", async () => {
    const http = createHttpClient(baseURL);
    await expect(http("/flaky")).resolves.toEqual({ ok: true });
    expect(hits.get("GET /flaky")).toBe(2);
  });

  it("gives up after one retry and rethrows the server's statusMessage", async () => {
    const http = createHttpClient(baseURL);
    const error = await http("/always-503").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(503);
    expect((error as HttpError).message).toBe("scripted 503");
    expect(hits.get("GET /always-503")).toBe(2);
  });

  it("does not retry statuses outside the list", async () => {
    const http = createHttpClient(baseURL);
    await expect(http("/teapot")).rejects.toMatchObject({ statusCode: 418 });
    expect(hits.get("GET /teapot")).toBe(1);
  });

  it("does not retry a POST", async () => {
    const http = createHttpClient(baseURL);
    await expect(http("/always-503", { method: "POST", body: { a: 1 } })).rejects.toMatchObject({
      statusCode: 503,
      statusMessage: "scripted 503",
    });
    expect(hits.get("POST /always-503")).toBe(1);
  });

  it("keeps the response data for field errors", async () => {
    const http = createHttpClient(baseURL);
    const error = (await http("/bad-request", { method: "POST", body: {} }).catch((e: unknown) => e)) as HttpError;
    expect(error.data).toEqual({ statusCode: 422, statusMessage: "scripted 422" });
  });
});
