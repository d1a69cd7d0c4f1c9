/**
 * An IdP's SAML metadata read from its URL through the outbound guard (private addresses only
 * where the operator allows them, SSO_ALLOW_PRIVATE_IDP_URLS; https otherwise): for an admin's
 * new provider and for the scheduled re-reads that follow the IdP's certificate rolls (decision 0163).
 */
import { outboundFetch, validateOutboundUrl } from "../net/outbound.ts";
import { maxMetadataBytes } from "./saml-metadata.ts";

export class SamlMetadataUnreachable extends Error {
  override name = "SamlMetadataUnreachable";
}

export async function fetchSamlMetadata(policy: { allowPrivate: boolean }, url: string): Promise<string> {
  const checked = await validateOutboundUrl(url, policy);
  if (!checked.ok || (!policy.allowPrivate && new URL(url).protocol !== "https:")) {
    throw new SamlMetadataUnreachable("address not allowed");
  }
  try {
    const response = await outboundFetch(policy, { timeoutMs: 10_000, maxBytes: maxMetadataBytes })(url, {
      headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" },
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return await response.text();
  } catch (error) {
    throw new SamlMetadataUnreachable((error as Error).message);
  }
}
