/** Every size and time limit of the HTTP server, in one place. */
export const limits = {
  /** Request bodies (the contact form): 64 KB. */
  maxBodyBytes: 64 * 1024,
  maxUrlLength: 4096,
  maxHeaderBytes: 16 * 1024,
  requestTimeoutMs: 15_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  /** In-flight requests get this long to finish on shutdown. */
  shutdownGraceMs: 10_000,
} as const;
