/** The Microsoft Teams channel: an Adaptive Card attachment (what Workflows incoming webhooks accept). */
import { channelText, documentLink } from "../catalog.ts";
import { type ChatPayload, chatIntro, chatPayload, chatWhy, prepareChat } from "../chat.ts";
import { type ChannelModule, deliveryKind } from "../types.ts";

export const teamsPayload = chatPayload.extend({ format: chatPayload.shape.format.extract(["teams"]) });

export function teamsMessage(payload: ChatPayload, siteUrl: string) {
  const l = channelText(payload.language);
  const doc = documentLink(siteUrl, payload.documentId);
  const why = chatWhy(payload);
  const actions: { type: string; title: string; url: string }[] = [
    { type: "Action.OpenUrl", title: l.alert.open, url: doc },
  ];
  if (/^https?:\/\//.test(payload.officialUrl))
    actions.push({ type: "Action.OpenUrl", title: l.alert.official, url: payload.officialUrl });
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [
            { type: "TextBlock", text: chatIntro(payload), weight: "Bolder", wrap: true },
            { type: "TextBlock", text: payload.title, wrap: true },
            ...(why ? [{ type: "TextBlock", text: why, wrap: true, spacing: "Small" }] : []),
            {
              type: "TextBlock",
              text: `${l.chat.published}: ${payload.publishedOn}`,
              isSubtle: true,
              spacing: "Small",
            },
          ],
          actions,
        },
      },
    ],
  };
}

export const teamsChannel: ChannelModule = {
  id: "teams",
  prepare: (match) => prepareChat("teams", match),
  deliveries: [
    deliveryKind({
      kind: "chat",
      payload: teamsPayload,
      async send(p, ctx) {
        await ctx.post(p.url, JSON.stringify(teamsMessage(p, ctx.siteUrl)));
        return "sent";
      },
    }),
  ],
};
