/** A mail rendered before it is stored (digests, shared documents): the "mail" delivery kind's payload. */
import { z } from "zod";

export const readyMail = z.object({
  from: z.string(),
  to: z.string(),
  replyTo: z.object({ name: z.string(), address: z.string() }),
  subject: z.string(),
  messageId: z.string(),
  text: z.string(),
  html: z.string(),
  headers: z.record(z.string(), z.string()),
});

export type AlertMail = z.infer<typeof readyMail>;
