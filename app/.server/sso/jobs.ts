/**
 * SSO's background work on the kernel (decision 0163): `sso-saml-metadata` re-reads the metadata of
 * every SAML provider set up by URL, daily and once at each start (one run at a time across
 * instances), so that an IdP's rolled signing certificate is known before anyone signs in.
 */
import type { Kernel } from "../kernel/kernel.ts";
import type { Logger } from "../logger.ts";

export const SSO_QUEUES = { samlMetadata: "sso-saml-metadata" } as const;

export function registerSsoJobs(kernel: Kernel, log: Logger, handlers: { refreshAll(): Promise<unknown> }) {
  kernel.queue(SSO_QUEUES.samlMetadata, { policy: "singleton", retryLimit: 2, retryBackoff: true }, async () => {
    const result = await handlers.refreshAll();
    log.info({ result }, "SAML metadata re-read");
  });
  kernel.schedule(SSO_QUEUES.samlMetadata, "25 3 * * *", null, { key: "daily" });
  kernel.afterStart("SSO jobs", () => kernel.send(SSO_QUEUES.samlMetadata, {}));
  return {
    queueRefresh: async () => {
      await kernel.send(SSO_QUEUES.samlMetadata, {});
    },
  };
}
