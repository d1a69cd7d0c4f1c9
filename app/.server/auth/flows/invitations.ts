/** Invitations: written (with their mail and audit event), listed, revoked, resent and accepted. */
import { randomUUID } from "node:crypto";
import { and, desc, eq, gt, inArray } from "drizzle-orm";
import { recordAudit } from "../../audit/record.ts";
import { invitation, invitationGroup, member, organization, teamMember } from "../../db/schema/auth.ts";
import { invitationMail, type MailLocale, queueMail } from "../mails.ts";
import { isRole, type MemberInfo, type Role } from "../permissions.ts";
import { AuthError, hashSecretToken, invitationDays, type RequestMeta } from "../types.ts";
import { accountHelpers } from "./accounts.ts";
import { type AuthContext, auditByMember, checkPassword, newToken, toLocale } from "./context.ts";
import { invitationWriter } from "./invitation-record.ts";

export function invitationFlow(ctx: AuthContext) {
  const { db, appUrl } = ctx;
  const { createUserWithPassword, signInAndStartEnrolment } = accountHelpers(ctx);
  const { insertInvitation } = invitationWriter(ctx);
  return {
    async findInvitation(token: string) {
      const [row] = await db
        .select({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          locale: invitation.locale,
          organizationId: invitation.organizationId,
          organizationName: organization.name,
        })
        .from(invitation)
        .innerJoin(organization, eq(organization.id, invitation.organizationId))
        .where(
          and(
            eq(invitation.tokenHash, hashSecretToken(token)),
            eq(invitation.status, "pending"),
            gt(invitation.expiresAt, new Date()),
          ),
        );
      return row ?? null;
    },

    /** Accepting an invitation: name and password, membership and groups, then TOTP enrolment. */
    async acceptInvitation(token: string, input: { name: string; password: string }, meta: RequestMeta) {
      checkPassword(input.password);
      const accepted = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(invitation)
          .set({ status: "accepted" })
          .where(
            and(
              eq(invitation.tokenHash, hashSecretToken(token)),
              eq(invitation.status, "pending"),
              gt(invitation.expiresAt, new Date()),
            ),
          )
          .returning();
        if (!row) throw new AuthError("invalid_token");
        const locale = toLocale(row.locale);
        const userId = await createUserWithPassword(tx, { ...input, email: row.email, locale });
        const memberId = randomUUID();
        const role = isRole(row.role) ? row.role : "member";
        await tx
          .insert(member)
          .values({ id: memberId, organizationId: row.organizationId, userId, role, createdAt: new Date() });
        const groups = await tx
          .select({ teamId: invitationGroup.teamId })
          .from(invitationGroup)
          .where(eq(invitationGroup.invitationId, row.id));
        for (const group of groups) {
          await tx.insert(teamMember).values({ id: randomUUID(), teamId: group.teamId, userId, createdAt: new Date() });
        }
        await recordAudit(tx, {
          organizationId: row.organizationId,
          actor: { id: userId, email: row.email },
          action: "member.joined",
          object: { type: "member", id: memberId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { role, via: "invitation", invitationId: row.id, groups: groups.length },
        });
        return row.email;
      });
      return signInAndStartEnrolment(meta, accepted, input.password);
    },

    async listInvitations(organizationId: string) {
      return db
        .select({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          status: invitation.status,
          locale: invitation.locale,
          expiresAt: invitation.expiresAt,
          createdAt: invitation.createdAt,
        })
        .from(invitation)
        .where(eq(invitation.organizationId, organizationId))
        .orderBy(desc(invitation.createdAt));
    },

    async invite(
      actor: MemberInfo,
      input: { email: string; role: Role; locale: MailLocale; groupIds: readonly string[] },
      meta: RequestMeta,
    ): Promise<{ id: string; url: string }> {
      return db.transaction((tx) =>
        insertInvitation(tx, {
          organizationId: actor.organizationId,
          organizationName: actor.organizationName,
          email: input.email,
          role: input.role,
          locale: input.locale,
          groupIds: input.groupIds,
          inviter: { id: actor.userId, email: actor.email, name: actor.name },
          meta,
        }),
      );
    },

    async revokeInvitation(actor: MemberInfo, invitationId: string, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const revoked = await tx
          .update(invitation)
          .set({ status: "canceled" })
          .where(
            and(
              eq(invitation.id, invitationId),
              eq(invitation.organizationId, actor.organizationId),
              eq(invitation.status, "pending"),
            ),
          )
          .returning({ id: invitation.id, email: invitation.email });
        if (!revoked[0]) return false;
        await auditByMember(
          tx,
          actor,
          meta,
          "invitation.revoked",
          { type: "invitation", id: invitationId },
          { email: revoked[0].email },
        );
        return true;
      });
    },

    /** A new link (the old one stops working), valid 7 days again, mailed again. */
    async resendInvitation(actor: MemberInfo, invitationId: string, meta: RequestMeta): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(invitation)
          .where(
            and(
              eq(invitation.id, invitationId),
              eq(invitation.organizationId, actor.organizationId),
              inArray(invitation.status, ["pending"]),
            ),
          );
        if (!row) return false;
        const token = newToken();
        await tx
          .update(invitation)
          .set({ tokenHash: hashSecretToken(token), expiresAt: new Date(Date.now() + invitationDays * 86_400_000) })
          .where(eq(invitation.id, row.id));
        const url = appUrl(`/app/invite/${token}`);
        await queueMail(
          tx,
          "invitation",
          row.email,
          invitationMail(toLocale(row.locale), {
            organizationName: actor.organizationName,
            inviterName: actor.name,
            url,
            role: row.role ?? "member",
          }),
        );
        await auditByMember(
          tx,
          actor,
          meta,
          "invitation.resent",
          { type: "invitation", id: row.id },
          { email: row.email },
        );
        return true;
      });
    },
  };
}
