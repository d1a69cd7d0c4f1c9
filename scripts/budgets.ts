/**
 * Byte budgets (enforced by tests/e2e/budgets.test.ts) and performance targets
 * (reported by scripts/bench.ts and scripts/loadtest.ts, never asserted as timed tests).
 * One KB is 1024 bytes, as Chromium's DevTools and Lighthouse count them.
 */
export const KB = 1024;

/** What the browser may download for the Spanish home page `/`. */
export const budgets = {
  /** Every script, each file's uncompressed bytes gzipped at level 6 and summed. */
  javascriptGzipBytes: 130 * KB,
  /** Every stylesheet, brotli as the server sends it. */
  cssBrotliBytes: 25 * KB,
  /** The HTML document, brotli as the server sends it. */
  htmlBrotliBytes: 30 * KB,
  /** Every request the page makes while loading, the document included. */
  maxRequests: 20,
} as const;

/** Figures the benchmark and the load test report against (pass/fail marks, not tests). */
export const targets = {
  lighthouseScore: 98,
  lcpMs: 1500,
  tbtMs: 50,
  cls: 0,
  /** GET / requests per second as a share of a bare node:http server sending the same bytes. */
  throughputRatio: 0.7,
  mailAcceptedPerSecond: 300,
  peakRssBytes: 150 * 1024 * 1024,
  startToHealthyMs: 1500,
  /** The load test fails at or above this peak RSS per server process. */
  loadtestMaxRssBytes: 250 * 1024 * 1024,
} as const;
