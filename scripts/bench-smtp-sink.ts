/** An in-process SMTP server on loopback that keeps the header block of every message it receives. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface SmtpSink {
  url: string;
  /** Header block of each message received, in arrival order. */
  messages: string[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const end = raw.search(/\r?\n\r?\n/);
        // Headers only: the sender's address is in Reply-To, and bodies would only cost memory.
        messages.push(end < 0 ? raw : raw.slice(0, end));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
