/** What routes use to take a demo request: the store, the rate limiter, the worker's wake-up. */
import type { RateLimiter, RateLimitResult } from "./rate-limit.ts";
import type { ContactStore, NewLead } from "./store.ts";

export interface ContactService {
  /** Stores the request and its outbox row in one transaction, then wakes the mail worker. */
  accept(lead: NewLead): Promise<{ id: string }>;
  rateLimit(clientIp: string): Promise<RateLimitResult>;
  putFlash(payload: unknown, email: string): Promise<string>;
  takeFlash(id: string): Promise<unknown>;
}

export function createContactService(store: ContactStore, limiter: RateLimiter, wake: () => void): ContactService {
  return {
    async accept(lead) {
      const result = await store.accept(lead);
      wake();
      return result;
    },
    rateLimit: (clientIp) => limiter.consume(clientIp),
    putFlash: (payload, email) => store.putFlash(payload, email),
    takeFlash: (id) => store.takeFlash(id),
  };
}
