/** The Slack channel: a group profile's incoming webhook gets `{ text, blocks }` in mrkdwn, its three control characters escaped. */
import { channelText, documentLink } from "../catalog.ts";
import { type ChatPayload, chatIntro, chatPayload, chatWhy, prepareChat } from "../chat.ts";
import { type ChannelModule, deliveryKind } from "../types.ts";

export const slackPayload = chatPayload.extend({ format: chatPayload.shape.format.extract(["slack"]) });

export function slackMessage(payload: ChatPayload, siteUrl: string) {
  const l = channelText(payload.language);
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const doc = documentLink(siteUrl, payload.documentId);
  const intro = chatIntro(payload);
  const why = chatWhy(payload);
  const text = `${intro}: ${payload.title} ${doc}${why ? `\n${why}` : ""}`;
  return {
    text: esc(text),
    blocks: [
      {
        type: "section",
        text: { type: "mrkdwn", text: `*${esc(intro)}*\n<${doc}|${esc(payload.title)}>` },
      },
      ...(why ? [{ type: "section", text: { type: "plain_text", text: why, emoji: false } }] : []),
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: `${esc(l.chat.published)}: ${esc(payload.publishedOn)}${payload.officialUrl ? ` · <${payload.officialUrl}|${esc(l.alert.official)}>` : ""}`,
          },
        ],
      },
    ],
  };
}

export const slackChannel: ChannelModule = {
  id: "slack",
  prepare: (match) => prepareChat("slack", match),
  deliveries: [
    deliveryKind({
      kind: "chat",
      payload: slackPayload,
      async send(p, ctx) {
        await ctx.post(p.url, JSON.stringify(slackMessage(p, ctx.siteUrl)));
        return "sent";
      },
    }),
  ],
};
