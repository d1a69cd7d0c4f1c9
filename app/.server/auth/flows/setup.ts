/** First run: the setup link (or the operator's organisation and owner invitation), and the setup page. */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { and, count, eq, gt, isNull } from "drizzle-orm";
import { recordAudit } from "../../audit/record.ts";
import { invitation, member, organization, setupToken, user } from "../../db/schema/auth.ts";
import type { MailLocale } from "../mails.ts";
import { AuthError, hashSecretToken, type RequestMeta, setupTokenHours } from "../types.ts";
import { accountHelpers } from "./accounts.ts";
import { type AuthContext, checkPassword, newToken } from "./context.ts";
import { invitationWriter } from "./invitation-record.ts";

export function setupFlow(ctx: AuthContext) {
  const { config, db, log, appUrl, limiter } = ctx;
  const { createUserWithPassword, signInAndStartEnrolment, createOrganization } = accountHelpers(ctx);
  const { insertInvitation } = invitationWriter(ctx);
  const flow = {
    /** At start: the setup link when there is no user; PLATFORM_ADMIN_EMAIL's organisation when there is none. */
    async firstRun(): Promise<{ setupUrl?: string; invitationUrl?: string }> {
      await limiter();
      const [users] = await db.select({ n: count() }).from(user);
      const [orgs] = await db.select({ n: count() }).from(organization);
      if ((orgs?.n ?? 0) === 0 && config.platformAdminEmail) {
        const pendingInvitations = await db.select({ n: count() }).from(invitation);
        if ((pendingInvitations[0]?.n ?? 0) === 0) {
          const created = await flow.createOrganizationWithOwnerInvitation({
            name: config.platformOrgName,
            adminEmail: config.platformAdminEmail,
            locale: "es",
          });
          log.info(
            { email: config.platformAdminEmail },
            "platform: organisation created, owner invited (the link is in the invitation mail)",
          );
          return { invitationUrl: created.url };
        }
        return {};
      }
      if ((users?.n ?? 0) > 0) return {};
      const token = newToken();
      await db.delete(setupToken).where(isNull(setupToken.usedAt));
      await db.insert(setupToken).values({
        tokenHash: hashSecretToken(token),
        expiresAt: new Date(Date.now() + setupTokenHours * 3_600_000),
      });
      const setupUrl = appUrl(`/app/setup/${token}`);
      mkdirSync(config.dataDir, { recursive: true });
      writeFileSync(path.join(config.dataDir, "setup-url.txt"), `${setupUrl}\n`, { mode: 0o600 });
      // The link itself stays out of the log (it is a secret): the file is readable by the operator only.
      log.warn(
        { setupUrlFile: path.join(config.dataDir, "setup-url.txt") },
        "platform first run: open the link in DATA_DIR/setup-url.txt to create the organisation and its owner",
      );
      // A person at a terminal gets the link on screen (a terminal is not a log: decision 0085);
      // piped or shipped output gets only the line above.
      if (process.stdout.isTTY) process.stdout.write(`\nSet up the platform (once, within 24 h): ${setupUrl}\n\n`);
      return { setupUrl };
    },

    async createOrganizationWithOwnerInvitation(input: {
      name: string;
      adminEmail: string;
      locale: MailLocale;
    }): Promise<{ organizationId: string; url: string }> {
      return db.transaction(async (tx) => {
        const organizationId = await createOrganization(tx, input.name);
        await recordAudit(tx, {
          organizationId,
          actor: null,
          action: "organization.created",
          object: { type: "organization", id: organizationId },
          detail: { name: input.name },
        });
        const { url } = await insertInvitation(tx, {
          organizationId,
          organizationName: input.name,
          email: input.adminEmail,
          role: "owner",
          locale: input.locale,
          groupIds: [],
          inviter: null,
          meta: null,
        });
        return { organizationId, url };
      });
    },

    async setupTokenValid(token: string): Promise<boolean> {
      const [row] = await db
        .select({ tokenHash: setupToken.tokenHash })
        .from(setupToken)
        .where(
          and(
            eq(setupToken.tokenHash, hashSecretToken(token)),
            isNull(setupToken.usedAt),
            gt(setupToken.expiresAt, new Date()),
          ),
        );
      return row !== undefined;
    },

    /** The setup page: organisation and owner, signed in, TOTP enrolment started. */
    async completeSetup(
      token: string,
      input: { organizationName: string; name: string; email: string; password: string; locale: MailLocale },
      meta: RequestMeta,
    ): Promise<string[]> {
      checkPassword(input.password);
      await db.transaction(async (tx) => {
        const used = await tx
          .update(setupToken)
          .set({ usedAt: new Date() })
          .where(
            and(
              eq(setupToken.tokenHash, hashSecretToken(token)),
              isNull(setupToken.usedAt),
              gt(setupToken.expiresAt, new Date()),
            ),
          )
          .returning({ tokenHash: setupToken.tokenHash });
        if (used.length === 0) throw new AuthError("invalid_token");
        const organizationId = await createOrganization(tx, input.organizationName);
        const userId = await createUserWithPassword(tx, input);
        const memberId = randomUUID();
        await tx.insert(member).values({ id: memberId, organizationId, userId, role: "owner", createdAt: new Date() });
        const actor = { id: userId, email: input.email.trim().toLowerCase() };
        await recordAudit(tx, {
          organizationId,
          actor,
          action: "organization.created",
          object: { type: "organization", id: organizationId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { name: input.organizationName.trim() },
        });
        await recordAudit(tx, {
          organizationId,
          actor,
          action: "member.joined",
          object: { type: "member", id: memberId },
          ip: meta.ip,
          userAgent: meta.userAgent,
          detail: { role: "owner", via: "setup" },
        });
      });
      try {
        const { rmSync } = await import("node:fs");
        rmSync(path.join(config.dataDir, "setup-url.txt"), { force: true });
      } catch {
        // Nothing to remove.
      }
      return signInAndStartEnrolment(meta, input.email.trim().toLowerCase(), input.password);
    },
  };
  return flow;
}
