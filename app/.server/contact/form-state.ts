/** What the contact form needs from the server when the page renders. */
import type { AppServices, RequestInfo } from "../context.ts";
import { type ContactOutcome, flashIdPattern, isContactOutcome, outcomeParam } from "./outcome.ts";
import { issueFormToken } from "./time-trap.ts";

export type { ContactOutcome } from "./outcome.ts";

export interface ContactFormState {
  /** Signed render time for the time trap. For a plain GET it is the only thing that varies. */
  token: string;
  /** The outcome of a no-JavaScript submission, after its 303. */
  outcome?: ContactOutcome;
}

export async function loadContactFormState(
  request: Request,
  services: AppServices,
  info: RequestInfo,
): Promise<ContactFormState> {
  const token = issueFormToken(services.config.formSecret);
  const ref = new URL(request.url).searchParams.get(outcomeParam);
  if (!ref) return { token };
  if (ref === "sent") return { token, outcome: { kind: "sent" } };
  const code = /^e([45]\d\d)$/.exec(ref);
  if (code) return { token, outcome: { kind: "error", status: Number(code[1]) } };
  if (flashIdPattern.test(ref)) {
    try {
      const payload = await services.contacts.takeFlash(ref);
      if (isContactOutcome(payload)) return { token, outcome: payload };
    } catch (error) {
      info.log.warn({ err: error }, "contact flash state unavailable");
    }
  }
  return { token };
}
