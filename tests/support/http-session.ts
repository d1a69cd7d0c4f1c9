/** A signed-in platform session over HTTP, as a browser without JavaScript gets it: setup form, then TOTP enrolment. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { mergeCookies } from "../../app/.server/auth/cookies.ts";
import { totpFromUri } from "./totp.ts";

export const httpPassword = "tortuga-verde-lunes-27";

export function httpClient(base: string) {
  let cookie = "";
  async function request(
    pathname: string,
    init: {
      method?: string;
      form?: Record<string, string>;
      headers?: Record<string, string>;
      body?: string;
      /**
       * On a connection of its own: a POST sent after a slow step (a loaded machine) on a kept-alive
       * connection can meet the server closing it (ECONNRESET), and fetch does not retry a POST.
       */
      fresh?: boolean;
    } = {},
  ) {
    const headers: Record<string, string> = {
      cookie,
      "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0",
      ...init.headers,
    };
    let body = init.body;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers.origin = base;
      body = new URLSearchParams(init.form).toString();
    }
    const method = init.method ?? (init.form ? "POST" : "GET");
    const response = init.fresh
      ? await freshRequest(`${base}${pathname}`, method, headers, body)
      : await fetch(`${base}${pathname}`, { method, headers, body, redirect: "manual" });
    cookie = mergeCookies(cookie, response.headers.getSetCookie());
    return response;
  }
  return {
    request,
    get cookie() {
      return cookie;
    },
  };
}

function freshRequest(url: string, method: string, headers: Record<string, string>, body: string | undefined) {
  return new Promise<Response>((resolve, reject) => {
    const request = http.request(url, { method, headers, agent: false }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(answer.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) out.append(name, one);
        }
        resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode ?? 0, headers: out }));
      });
      answer.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

async function enrolOverHttp(client: ReturnType<typeof httpClient>) {
  const mfaPage = await (await client.request("/app/mfa")).text();
  const uri = mfaPage.match(/otpauth:\/\/totp\/[^<"\s]+/)?.[0]?.replaceAll("&amp;", "&");
  if (!uri) throw new Error("no otpauth URI on the MFA page");
  const verified = await client.request("/app/mfa", { form: { intent: "verify", code: totpFromUri(uri) } });
  if (verified.status !== 302 && verified.status !== 303) throw new Error(`MFA answered ${verified.status}`);
  return uri;
}

/** An invitation link accepted over HTTP (name, password), then TOTP enrolment; with the member's otpauth:// URI. */
export async function acceptInvitationOverHttp(base: string, invitationUrl: string, name: string) {
  const client = httpClient(base);
  const accepted = await client.request(new URL(invitationUrl).pathname, { form: { name, password: httpPassword } });
  if (accepted.status !== 302 && accepted.status !== 303) throw new Error(`invitation answered ${accepted.status}`);
  return Object.assign(client, { totpUri: await enrolOverHttp(client) });
}

/** The invitation link of the mail to `email` the server wrote under DATA_DIR/mail (no SMTP set). */
async function invitationLink(dataDir: string, email: string): Promise<string> {
  const dir = path.join(dataDir, "mail");
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const name of existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith(".eml")) : []) {
      const text = readFileSync(path.join(dir, name), "utf8")
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      const link = text.includes(email) ? text.match(/\/app\/invite\/[\w-]+/)?.[0] : undefined;
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no invitation mail to ${email}`);
}

/** A member invited by a signed-in owner over HTTP, who accepted and enrolled. */
export async function inviteOverHttp(
  owner: ReturnType<typeof httpClient>,
  base: string,
  dataDir: string,
  email: string,
  name = email.split("@")[0] ?? "Member",
) {
  const invited = await owner.request("/app/admin/members", {
    form: { intent: "invite", email, role: "member", locale: "es" },
  });
  if (invited.status !== 200) throw new Error(`invitation answered ${invited.status}`);
  return acceptInvitationOverHttp(base, `${base}${await invitationLink(dataDir, email)}`, name);
}

/** The first run's setup over HTTP: the owner signed in with a verified second factor. */
export async function setupOwnerOverHttp(base: string, dataDir: string, email = "ana@example.com") {
  const client = httpClient(base);
  const setupUrl = new URL(readFileSync(path.join(dataDir, "setup-url.txt"), "utf8").trim());
  const setup = await client.request(setupUrl.pathname, {
    form: { organizationName: "Org HTTP", name: "Ana", email, password: httpPassword },
  });
  if (setup.status !== 302 && setup.status !== 303) throw new Error(`setup answered ${setup.status}`);
  /** The owner's otpauth:// URI, for codes at a later sign-in. */
  const totpUri = await enrolOverHttp(client);
  return Object.assign(client, { totpUri });
}
