/**
 * The mail channel. Two kinds of rows: "email", an alert mail to a member sent at once (its
 * payload holds the parts; the mail is rendered at send time in the member's language), and
 * "mail", a mail rendered before it was stored (digests, shared documents).
 */
import { z } from "zod";
import { inAppPayload } from "../in-app/index.ts";
import { type ChannelModule, deliveryKind, type PreparedDelivery, type ProfileMatch } from "../types.ts";
import { readyMail } from "./ready.ts";
import { immediateMail } from "./render.ts";

export const emailPayload = inAppPayload.extend({
  email: z.string(),
  language: z.enum(["es", "en"]),
  profileName: z.string(),
  officialUrl: z.string(),
  publishedOn: z.string(),
});
export type EmailPayload = z.infer<typeof emailPayload>;

function prepare(match: ProfileMatch): PreparedDelivery[] {
  if (match.profile.emailMode !== "immediate") return [];
  return match.recipients.map((recipient) => {
    const payload: EmailPayload = {
      userId: recipient.userId,
      documentId: match.documentId,
      profileId: match.profile.id,
      title: match.document.title,
      email: recipient.email,
      language: recipient.language,
      profileName: match.profile.name,
      officialUrl: match.document.officialUrl,
      publishedOn: match.document.publishedOn,
      why: match.why,
    };
    return { kind: "email", recipient: recipient.userId, payload };
  });
}

export const mailChannel: ChannelModule = {
  id: "mail",
  prepare,
  deliveries: [
    deliveryKind({
      kind: "email",
      payload: emailPayload,
      // An SMTP server down for an hour must not lose a mail (issue 42): retried for the window.
      retryWindow: true,
      async send(p, ctx, delivery) {
        await ctx.transport.send(
          immediateMail(p, { from: ctx.mailFrom, siteUrl: ctx.siteUrl, deliveryId: delivery.id }),
        );
        return "sent";
      },
    }),
    deliveryKind({
      kind: "mail",
      payload: readyMail,
      retryWindow: true,
      async send(mail, ctx) {
        await ctx.transport.send(mail);
        return "sent";
      },
    }),
  ],
};
