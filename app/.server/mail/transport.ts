/** Sends mail through SMTP (SMTP_URL) or, without it, writes each message as an .eml file under DATA_DIR/mail. */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "../logger.ts";
import type { Notification } from "./notification.ts";

export interface MailTransport {
  kind: "smtp" | "files";
  send(message: Notification): Promise<void>;
  close(): void;
}

export function createMailTransport(options: {
  smtpUrl?: string | undefined;
  dataDir: string;
  log: Logger;
}): MailTransport {
  if (options.smtpUrl) {
    // Credentials in the URL are used; STARTTLS is used whenever the server offers it.
    // Pooled: connections are reused across mails and the worker's parallel sends.
    const transporter = nodemailer.createTransport({
      url: options.smtpUrl,
      pool: true,
      maxConnections: 4,
      maxMessages: 500,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      kind: "smtp",
      async send(message) {
        await transporter.sendMail(message);
      },
      close: () => transporter.close(),
    };
  }
  const dir = path.join(options.dataDir, "mail");
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });
  return {
    kind: "files",
    async send(message) {
      const info = await writer.sendMail(message);
      mkdirSync(dir, { recursive: true });
      // Named after the Message-ID: a retry overwrites the same file instead of duplicating it.
      const base = message.messageId.replace(/[^A-Za-z0-9@._-]/g, "");
      const file = path.join(dir, `${base}.eml`);
      writeFileSync(`${file}.tmp`, info.message as Buffer);
      renameSync(`${file}.tmp`, file);
      options.log.info({ file, messageId: message.messageId }, "mail written to file (SMTP_URL unset)");
    },
    close: () => {},
  };
}
