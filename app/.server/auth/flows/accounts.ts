/** Accounts and organisations as setup and invitations create them, then sign-in and TOTP enrolment. */
import { randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type { Executor } from "../../audit/executor.ts";
import { account, organization, user } from "../../db/schema/auth.ts";
import { setCookiesOf } from "../cookies.ts";
import type { MailLocale } from "../mails.ts";
import { AuthError, type RequestMeta } from "../types.ts";
import type { AuthContext } from "./context.ts";

function slugFor(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);
  return `${base || "org"}-${randomBytes(3).toString("hex")}`;
}

export function accountHelpers(ctx: AuthContext) {
  const { auth, authHeaders } = ctx;

  async function createUserWithPassword(
    tx: Executor,
    data: { name: string; email: string; password: string; locale: MailLocale },
  ): Promise<string> {
    const email = data.email.trim().toLowerCase();
    const [existing] = await tx.select({ id: user.id }).from(user).where(eq(user.email, email));
    if (existing) throw new AuthError("email_taken");
    const id = randomUUID();
    const now = new Date();
    await tx.insert(user).values({
      id,
      name: data.name.trim(),
      email,
      emailVerified: true,
      createdAt: now,
      updatedAt: now,
      locale: data.locale,
      role: "user",
    });
    await tx.insert(account).values({
      id: randomUUID(),
      accountId: id,
      providerId: "credential",
      userId: id,
      password: await hashPassword(data.password),
      createdAt: now,
      updatedAt: now,
    });
    return id;
  }

  /** Signs in with email and password through better-auth and starts TOTP enrolment. */
  async function signInAndStartEnrolment(meta: RequestMeta, email: string, password: string): Promise<string[]> {
    const signIn = await auth.api.signInEmail({
      body: { email, password, rememberMe: true },
      headers: authHeaders(meta),
      asResponse: true,
    });
    if (!signIn.ok) throw new Error(`sign-in after account creation failed: ${signIn.status}`);
    const cookies = setCookiesOf(signIn);
    const enable = await auth.api.enableTwoFactor({
      body: { password },
      headers: authHeaders(meta, cookies),
      asResponse: true,
    });
    if (!enable.ok) throw new Error(`enabling two-factor failed: ${enable.status}`);
    return [...cookies, ...setCookiesOf(enable)];
  }

  async function createOrganization(tx: Executor, name: string): Promise<string> {
    const id = randomUUID();
    await tx.insert(organization).values({ id, name: name.trim(), slug: slugFor(name), createdAt: new Date() });
    return id;
  }

  return { createUserWithPassword, signInAndStartEnrolment, createOrganization };
}
