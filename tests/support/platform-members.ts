/** Signed-in platform members for in-process route tests: setup's owner and invited members, each with a session cookie. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { mergeCookies } from "../../app/.server/auth/cookies.ts";
import type { MemberInfo, Role } from "../../app/.server/auth/permissions.ts";
import type { AuthService, RequestMeta } from "../../app/.server/auth/service.ts";
import { totpFromUri } from "./totp.ts";

export const memberPassword = "tortuga-verde-lunes-27";

export interface SignedIn {
  member: MemberInfo;
  cookie: string;
  meta(): RequestMeta;
}

function browser(agent: string) {
  let cookie = "";
  return {
    get cookie() {
      return cookie;
    },
    meta(): RequestMeta {
      return { headers: new Headers({ cookie, "user-agent": agent }), ip: "198.51.100.7", userAgent: agent };
    },
    take(setCookies: readonly string[]) {
      cookie = mergeCookies(cookie, setCookies);
    },
  };
}

async function enrol(auth: AuthService, b: ReturnType<typeof browser>): Promise<SignedIn> {
  const current = await auth.currentSession(b.meta().headers);
  if (!current) throw new Error("no session");
  const enrolment = await auth.enrolment(current);
  if (!enrolment) throw new Error("no enrolment");
  b.take(await auth.confirmEnrolment(current, totpFromUri(enrolment.totpURI), b.meta()));
  const verified = await auth.currentSession(b.meta().headers);
  const member = verified && (await auth.memberOf(verified));
  if (!member) throw new Error("not a member");
  return { member, cookie: b.cookie, meta: () => b.meta() };
}

/** The first run's setup: an organisation and its owner. */
export async function setupOwner(
  auth: AuthService,
  dataDir: string,
  input: { email: string; name?: string; locale?: "es" | "en"; organizationName?: string },
): Promise<SignedIn> {
  const token = readFileSync(path.join(dataDir, "setup-url.txt"), "utf8").trim().split("/").at(-1) ?? "";
  const b = browser(`owner-${input.email}`);
  b.take(
    await auth.completeSetup(
      token,
      {
        organizationName: input.organizationName ?? "Org Alerts",
        name: input.name ?? "Ana",
        email: input.email,
        password: memberPassword,
        locale: input.locale ?? "es",
      },
      b.meta(),
    ),
  );
  return enrol(auth, b);
}

/** An invited member (role, groups, language) who accepted and enrolled. */
export async function inviteMember(
  auth: AuthService,
  owner: SignedIn,
  input: { email: string; name?: string; role?: Role; locale?: "es" | "en"; groupIds?: string[] },
): Promise<SignedIn> {
  const invited = await auth.invite(
    owner.member,
    { email: input.email, role: input.role ?? "member", locale: input.locale ?? "es", groupIds: input.groupIds ?? [] },
    owner.meta(),
  );
  const b = browser(`member-${input.email}`);
  b.take(
    await auth.acceptInvitation(
      invited.url.split("/").at(-1) ?? "",
      { name: input.name ?? input.email.split("@")[0] ?? "Member", password: memberPassword },
      b.meta(),
    ),
  );
  return enrol(auth, b);
}

/** The owner of an organisation made by createOrganizationWithOwnerInvitation, signed in and enrolled. */
export async function acceptOwnerInvitation(
  auth: AuthService,
  url: string,
  input: { email: string; name?: string },
): Promise<SignedIn> {
  const b = browser(`owner-${input.email}`);
  b.take(
    await auth.acceptInvitation(
      url.split("/").at(-1) ?? "",
      { name: input.name ?? input.email.split("@")[0] ?? "Owner", password: memberPassword },
      b.meta(),
    ),
  );
  return enrol(auth, b);
}
