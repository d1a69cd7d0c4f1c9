/**
 * The channels, registered in one place (decision 0100). Matching asks every channel to prepare
 * the deliveries of a new match; the delivery worker finds the channel of a stored row by its kind
 * (deliveries.channel) and the payload schema that parses it. Adding a channel: docs/channels.md.
 */
import { digestChannel } from "./digest/index.ts";
import { inAppChannel } from "./in-app/index.ts";
import { mailChannel } from "./mail/index.ts";
import { slackChannel } from "./slack/index.ts";
import { teamsChannel } from "./teams/index.ts";
import type { ChannelModule, DeliveryKind } from "./types.ts";
import { webhookChannel } from "./webhook/index.ts";

const registry: ChannelModule[] = [
  inAppChannel,
  mailChannel,
  digestChannel,
  slackChannel,
  teamsChannel,
  webhookChannel,
];

export function registeredChannels(): readonly ChannelModule[] {
  return registry;
}

/**
 * Adds a channel at run time (tests; a deployment's own channel at start-up). Its kinds must not
 * be parsed by an existing channel's schema. Returns the function that removes it.
 */
export function registerChannel(channel: ChannelModule): () => void {
  if (registry.some((c) => c.id === channel.id)) throw new Error(`channel ${channel.id} is already registered`);
  registry.push(channel);
  return () => {
    const at = registry.indexOf(channel);
    if (at >= 0) registry.splice(at, 1);
  };
}

/** Every deliveries.channel value some registered channel sends. */
export function deliveryKinds(): string[] {
  return [...new Set(registry.flatMap((c) => c.deliveries.map((d) => d.kind)))];
}

export type Resolved =
  | { ok: true; channel: ChannelModule; handler: DeliveryKind<never>; payload: never }
  | { ok: false; reason: string };

/** The channel that sends a stored row: the first of its kind whose payload schema parses the row's jsonb. */
export function resolveDelivery(kind: string, payload: unknown): Resolved {
  let fits = false;
  for (const channel of registry)
    for (const handler of channel.deliveries) {
      if (handler.kind !== kind) continue;
      fits = true;
      const parsed = handler.payload.safeParse(payload);
      if (parsed.success) return { ok: true, channel, handler, payload: parsed.data };
    }
  return { ok: false, reason: fits ? `payload does not fit channel ${kind}` : `unknown channel ${kind}` };
}
