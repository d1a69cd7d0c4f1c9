/**
 * The channel interface (decision 0100). A channel module prepares the deliveries of a new match
 * (`prepare`), and sends the deliveries of the kinds it owns (`deliveries`: a payload schema that
 * every stored jsonb row is parsed with before `send`, and its limits). Registered in index.ts.
 */
import type { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import type { MailTransport } from "../../mail/transport.ts";
import type { Lang, Profile } from "../profiles.ts";
import type { MatchWhy } from "../why.ts";

export interface Recipient {
  userId: string;
  email: string;
  language: Lang;
}

/** Who is behind a profile: the auth capability provides this (users and groups are its tables). */
export interface AlertDirectory {
  users(userIds: string[]): Promise<Map<string, Recipient>>;
  groupMembers(groupIds: string[]): Promise<Map<string, Recipient[]>>;
}

/** What the delivery worker lends a channel's send. */
export interface SendContext {
  database: Database;
  transport: MailTransport;
  mailFrom: string;
  siteUrl: string;
  /** POSTs through the outbound guard (checked address, no redirects, timeout); non-2xx throws; a refused address is a PermanentFailure. */
  post(url: string, body: string, headers?: Record<string, string>): Promise<void>;
  log: Logger;
}

/** The stored row a send is for. */
export interface Delivery {
  id: string;
  kind: string;
  recipient: string;
  attempts: number;
}

/** A failure no retry can mend (a refused address, a deleted webhook, a payload that does not parse): the row is dead at once. */
export class PermanentFailure extends Error {}

/**
 * "sent": the worker marks the row sent. "committed": send set the row's state itself, in its own
 * transaction (in-app alerts: sent with their alerts; webhooks: held while their webhook is paused).
 */
export type SendOutcome = "sent" | "committed";

export interface DeliveryKind<P = unknown> {
  /** The deliveries.channel value of its rows. Several handlers may share one (Slack and Teams: "chat"); the payload schema tells them apart. */
  kind: string;
  payload: z.ZodType<P>;
  send(payload: P, ctx: SendContext, delivery: Delivery): Promise<SendOutcome>;
  /** Many rows of this kind at once (all or nothing; on failure the worker sends them one by one). */
  sendBatch?(items: { payload: P; delivery: Delivery }[], ctx: SendContext): Promise<void>;
  /** Attempts before the row is dead (default: the worker's maxAttempts); ignored when the row has a give-up time. */
  maxAttempts?: number;
  /**
   * Retried for the worker's retry window from the row's creation (ALERTS_RETRY_WINDOW_MS, 24 h)
   * rather than a number of attempts: webhooks and mail, whose peer may be down for hours.
   */
  retryWindow?: boolean;
}

/** A new match of a profile, as matching hands it to each channel's prepare. */
export interface ProfileMatch {
  matchId: string;
  documentId: string;
  document: { title: string; officialUrl: string; publishedOn: string };
  profile: Profile;
  /** The profile's user, or its group's members (already resolved). */
  recipients: Recipient[];
  now: Date;
  /** Why it matched (decision 0148): every channel's payload carries it. */
  why: MatchWhy;
}

/** A delivery a channel wants stored for a match (matching adds the id, match key and organisation). */
export interface PreparedDelivery {
  kind: string;
  recipient: string;
  payload: unknown;
  giveUpAt?: Date | null;
}

export interface ChannelModule {
  /** in-app, mail, digest, slack, teams, webhook, … */
  id: string;
  /** Deliveries for a new profile match (none when the profile does not use the channel). */
  prepare?(match: ProfileMatch): PreparedDelivery[];
  /** The kinds of delivery rows it sends. */
  deliveries: DeliveryKind<never>[];
}

/** Declares a delivery kind with its payload type checked against its send (the registry keeps them as DeliveryKind<never>). */
export function deliveryKind<P>(handler: DeliveryKind<P>): DeliveryKind<never> {
  return handler as unknown as DeliveryKind<never>;
}
