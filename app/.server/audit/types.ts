/**
 * What the platform records about who did what (platform spec section 8). Actions are
 * `noun.verb` (auth.sign_in, auth.sign_in_failed, mfa.enrolled, member.invited,
 * document.read, note.created, token.created, ...). Write an event in the same
 * transaction as the change it records: `recordAudit(tx, event)`.
 */
export interface AuditEventInput {
  organizationId: string;
  /** The acting user (for an API token, its creator; the token id goes in `detail`), or null for the system. */
  actor: { id: string; email: string } | null;
  action: string;
  object: { type: string; id: string } | null;
  /** The client's IP; stored only as a keyed hash (per-organisation key). */
  ip?: string | undefined;
  userAgent?: string | undefined;
  /** Small JSON detail (changed fields, role from/to); never secrets or passwords. */
  detail?: Record<string, unknown> | undefined;
  /** When it happened; now by default (set it only to import or replay events). */
  at?: Date | undefined;
}

/** An event as stored: its place in the organisation's chain and its hashes. */
export interface AuditEvent {
  id: string;
  organizationId: string;
  seq: number;
  at: Date;
  actor: { id: string; email: string } | null;
  action: string;
  object: { type: string; id: string } | null;
  ipHash: string | null;
  userAgent: string | null;
  detail: Record<string, unknown> | null;
  prevHash: string;
  hash: string;
}

/** The contract's JSON shape of an event (GET /api/v1/audit, the admin page's JSON export). */
export interface AuditEventJson {
  id: string;
  at: string;
  actor: { id: string; email: string } | null;
  action: string;
  object: { type: string; id: string } | null;
  ipHash: string | null;
  userAgent: string | null;
  hash: string;
  prevHash: string;
}
