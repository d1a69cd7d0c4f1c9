/**
 * The benchmark's baseline: a bare node:http server that answers each URL with the exact
 * status, headers and body bytes our server sent for it (captured by scripts/bench.ts).
 * Run as a child process: `node scripts/bench-bare-server.ts <captured.json>`; it reports
 * its port over IPC.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import { limits } from "../server/limits.ts";

export interface CapturedResponse {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  bodyBase64: string;
}

// Node writes these itself on every response, exactly as it did for our server.
const regenerated = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

const captured = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as Record<string, CapturedResponse>;
const routes = new Map(
  Object.entries(captured).map(([url, response]) => {
    const headers: string[] = [];
    for (let i = 0; i < response.rawHeaders.length; i += 2) {
      if (!regenerated.has(response.rawHeaders[i]!.toLowerCase()))
        headers.push(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
    }
    return [url, { ...response, headers, body: Buffer.from(response.bodyBase64, "base64") }] as const;
  }),
);

const server = http.createServer({ keepAliveTimeout: limits.keepAliveTimeoutMs }, (req, res) => {
  const route = routes.get(req.url ?? "/");
  if (!route) {
    res.writeHead(404, { "content-length": 0 });
    res.end();
    return;
  }
  res.writeHead(route.status, route.statusMessage, route.headers);
  res.end(route.body);
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
process.on("disconnect", () => process.exit(0));
process.on("SIGTERM", () => process.exit(0));
