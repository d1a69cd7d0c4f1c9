import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, type RunningServer, startServer } from "../support/server.ts";

// CI once failed with EADDRINUSE: the port freePort() found was taken before the server listened.
let squatter: Server;
const sockets = new Set<Socket>();
let taken: number;
let server: RunningServer | undefined;

beforeAll(async () => {
  taken = await freePort();
  // Accepts and never answers, like a port held by some other program.
  squatter = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => squatter.listen(taken, "127.0.0.1", resolve));
});

afterAll(async () => {
  await server?.stop();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => squatter.close(resolve));
});

it("starts on another port when the one it chose is taken before it listens", async () => {
  server = await startServer({ firstPort: taken });
  expect(server.port).not.toBe(taken);
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
}, 120_000);
