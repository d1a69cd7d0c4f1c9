/** Sessions: the current one (idle and absolute limits), the member behind it, listing, ending, sign-out. */
import { and, asc, desc, eq, ne } from "drizzle-orm";
import { member, organization, session, user } from "../../db/schema/auth.ts";
import { requestSessionToken, setCookiesOf } from "../cookies.ts";
import type { MailLocale } from "../mails.ts";
import { isRole, type MemberInfo } from "../permissions.ts";
import { sessionAbsoluteSeconds, sessionIdleSeconds } from "../server.ts";
import type { RequestMeta, SessionInfo } from "../types.ts";
import { type AuthContext, toLocale } from "./context.ts";

export function sessionFlow(ctx: AuthContext) {
  const { db, auth, authHeaders, auditForUser } = ctx;
  return {
    /** The signed-in session behind a request (null when none, ended, idle or too old). */
    async currentSession(headers: Headers): Promise<SessionInfo | null> {
      const token = requestSessionToken(headers.get("cookie"));
      if (!token) return null;
      const found = await auth.api.getSession({ headers }).catch(() => null);
      if (!found) return null;
      const s = found.session as typeof found.session & { mfaVerifiedAt?: Date | string | null };
      const u = found.user as typeof found.user & { locale?: string; twoFactorEnabled?: boolean | null };
      const createdAt = new Date(s.createdAt);
      const lastSeenAt = new Date(s.updatedAt);
      const now = Date.now();
      if (
        now - createdAt.getTime() > sessionAbsoluteSeconds * 1000 ||
        now - lastSeenAt.getTime() > sessionIdleSeconds * 1000
      ) {
        await db.delete(session).where(eq(session.id, s.id));
        return null;
      }
      return {
        sessionId: s.id,
        token: s.token,
        userId: u.id,
        email: u.email,
        name: u.name,
        locale: toLocale(u.locale),
        createdAt,
        lastSeenAt,
        mfaVerified: s.mfaVerifiedAt != null,
        twoFactorEnabled: u.twoFactorEnabled === true,
      };
    },

    async memberOf(current: SessionInfo): Promise<MemberInfo | null> {
      const [row] = await db
        .select({
          memberId: member.id,
          role: member.role,
          organizationId: member.organizationId,
          organizationName: organization.name,
          banned: user.banned,
        })
        .from(member)
        .innerJoin(organization, eq(organization.id, member.organizationId))
        .innerJoin(user, eq(user.id, member.userId))
        .where(eq(member.userId, current.userId))
        .orderBy(asc(member.createdAt))
        .limit(1);
      if (!row || row.banned || !isRole(row.role)) return null;
      return {
        userId: current.userId,
        email: current.email,
        name: current.name,
        organizationId: row.organizationId,
        organizationName: row.organizationName,
        memberId: row.memberId,
        role: row.role,
        locale: current.locale,
      };
    },

    async signOut(current: SessionInfo | null, meta: RequestMeta): Promise<string[]> {
      const response = await auth.api.signOut({ headers: authHeaders(meta), asResponse: true });
      if (current) await auditForUser(db, current.userId, current.email, "auth.sign_out", meta);
      return setCookiesOf(response);
    },

    async listSessions(userId: string) {
      return db
        .select({
          id: session.id,
          token: session.token,
          userAgent: session.userAgent,
          ipAddress: session.ipAddress,
          createdAt: session.createdAt,
          lastSeenAt: session.updatedAt,
          mfaVerifiedAt: session.mfaVerifiedAt,
        })
        .from(session)
        .where(eq(session.userId, userId))
        .orderBy(desc(session.updatedAt));
    },

    /** Ends one of the user's own sessions (or all others). */
    async endSessions(
      current: SessionInfo,
      which: { sessionId: string } | "others",
      meta: RequestMeta,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const ended = await tx
          .delete(session)
          .where(
            which === "others"
              ? and(eq(session.userId, current.userId), ne(session.id, current.sessionId))
              : and(eq(session.userId, current.userId), eq(session.id, which.sessionId)),
          )
          .returning({ id: session.id });
        if (ended.length > 0) {
          await auditForUser(tx, current.userId, current.email, "session.ended", meta, null, {
            sessions: ended.map((row) => row.id),
          });
        }
        return ended.length;
      });
    },

    async setLocale(userId: string, locale: MailLocale): Promise<void> {
      await db.update(user).set({ locale, updatedAt: new Date() }).where(eq(user.id, userId));
    },
  };
}
