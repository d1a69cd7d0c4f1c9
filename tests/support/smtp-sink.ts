/** A real SMTP peer for tests (smtp-server): collects messages; can refuse connections or answer 4xx/5xx. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface SinkMessage {
  from: string;
  to: string[];
  raw: string;
  /** Header lines, unfolded, keyed by lower-case name (first occurrence). */
  headers: Record<string, string>;
  messageId: string;
}

export type SinkMode = "accept" | "refuse" | "temporary" | "permanent";

export interface SmtpSink {
  port: number;
  url: string;
  messages: SinkMessage[];
  /** "refuse" closes the listening socket; 4xx/5xx answer DATA with an error. */
  setMode(mode: SinkMode): Promise<void>;
  /** Messages by Message-ID, to count duplicates. */
  countByMessageId(): Map<string, number>;
  stop(): Promise<void>;
}

export function parseHeaders(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? "";
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] ??= line.slice(colon + 1).trim();
  }
  return headers;
}

export async function startSmtpSink(options: { port?: number; mode?: SinkMode } = {}): Promise<SmtpSink> {
  let mode: SinkMode = options.mode ?? "accept";
  const messages: SinkMessage[] = [];
  let port = options.port ?? 0;
  let server: SMTPServer | undefined;

  function create(): SMTPServer {
    return new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      // stop() ends the clients' idle pooled connections at once: the library's default waits 30 s
      // for them to hang up, and a pooled mail transport never does.
      closeTimeout: 200,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if (mode === "temporary") {
            const error = new Error("Try again later") as Error & { responseCode: number };
            error.responseCode = 451;
            return callback(error);
          }
          if (mode === "permanent") {
            const error = new Error("Mailbox unavailable") as Error & { responseCode: number };
            error.responseCode = 550;
            return callback(error);
          }
          const raw = Buffer.concat(chunks).toString("utf8");
          const headers = parseHeaders(raw);
          messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            headers,
            messageId: headers["message-id"] ?? "",
          });
          callback();
        });
      },
    });
  }

  async function listen(): Promise<void> {
    server = create();
    const current = server;
    await new Promise<void>((resolve, reject) => {
      current.once("error", reject);
      current.listen(port, "127.0.0.1", () => resolve());
    });
    port = (current.server.address() as AddressInfo).port;
  }

  async function close(): Promise<void> {
    const current = server;
    server = undefined;
    if (!current) return;
    await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  if (mode !== "refuse") await listen();
  else {
    // Reserve a port number so the URL stays the same when the sink comes up later.
    await listen();
    await close();
  }

  return {
    get port() {
      return port;
    },
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    messages,
    async setMode(next) {
      if (next === "refuse" && server) await close();
      if (next !== "refuse" && !server) await listen();
      mode = next;
    },
    countByMessageId() {
      const counts = new Map<string, number>();
      for (const message of messages) counts.set(message.messageId, (counts.get(message.messageId) ?? 0) + 1);
      return counts;
    },
    stop: close,
  };
}
