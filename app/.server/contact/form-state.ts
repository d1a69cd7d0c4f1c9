/** What the contact form needs from the server when the page renders. */
import type { AppServices, RequestInfo } from "../context.ts";

export interface ContactFormState {
  /** Placeholder until the contact issue lands. */
  ready: boolean;
}

export async function loadContactFormState(
  _request: Request,
  _services: AppServices,
  _info: RequestInfo,
): Promise<ContactFormState> {
  return { ready: false };
}
