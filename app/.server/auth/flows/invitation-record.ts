/** An invitation written with its mail and its audit event, in the caller's transaction. */
import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../audit/executor.ts";
import { recordAudit } from "../../audit/record.ts";
import { invitation, invitationGroup, team } from "../../db/schema/auth.ts";
import { invitationMail, type MailLocale, queueMail } from "../mails.ts";
import type { Role } from "../permissions.ts";
import { hashSecretToken, invitationDays, type RequestMeta } from "../types.ts";
import { type AuthContext, newToken } from "./context.ts";

export function invitationWriter(ctx: AuthContext) {
  const { appUrl } = ctx;

  async function insertInvitation(
    tx: Executor,
    input: {
      organizationId: string;
      organizationName: string;
      email: string;
      role: Role;
      locale: MailLocale;
      groupIds: readonly string[];
      inviter: { id: string; email: string; name: string } | null;
      meta: RequestMeta | null;
    },
  ): Promise<{ id: string; url: string }> {
    const token = newToken();
    const id = randomUUID();
    const email = input.email.trim().toLowerCase();
    await tx.insert(invitation).values({
      id,
      organizationId: input.organizationId,
      email,
      role: input.role,
      status: "pending",
      expiresAt: new Date(Date.now() + invitationDays * 86_400_000),
      inviterId: input.inviter?.id ?? null,
      locale: input.locale,
      tokenHash: hashSecretToken(token),
    });
    if (input.groupIds.length > 0) {
      const groups = await tx
        .select({ id: team.id })
        .from(team)
        .where(and(eq(team.organizationId, input.organizationId), inArray(team.id, [...input.groupIds])));
      if (groups.length > 0) {
        await tx.insert(invitationGroup).values(groups.map((group) => ({ invitationId: id, teamId: group.id })));
      }
    }
    const url = appUrl(`/app/invite/${token}`);
    await queueMail(
      tx,
      "invitation",
      email,
      invitationMail(input.locale, {
        organizationName: input.organizationName,
        inviterName: input.inviter?.name ?? null,
        url,
        role: input.role,
      }),
    );
    await recordAudit(tx, {
      organizationId: input.organizationId,
      actor: input.inviter ? { id: input.inviter.id, email: input.inviter.email } : null,
      action: "member.invited",
      object: { type: "invitation", id },
      ip: input.meta?.ip,
      userAgent: input.meta?.userAgent,
      detail: { email, role: input.role, locale: input.locale, groups: input.groupIds.length },
    });
    return { id, url };
  }

  return { insertInvitation };
}
