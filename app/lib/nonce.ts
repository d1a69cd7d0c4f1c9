/** The response's CSP nonce for inline scripts, provided by entry.server.tsx; empty in the browser. */
import { createContext, useContext } from "react";

export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
