import { describe, expect, it } from "vitest";
import { parseWrk } from "./bench-wrk.ts";

const report = `Running 10s test @ http://127.0.0.1:3000/
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     3.47ms    1.02ms  25.10ms   88.12%
    Req/Sec    14.5k     1.1k    16.0k    76.00%
  Latency Distribution
     50%    3.30ms
     75%    3.80ms
     90%    4.50ms
     99%  812.00us
  144211 requests in 10.02s, 1.50GB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:  14392.32
Transfer/sec:    153.26MB
`;

describe("wrk report", () => {
  it("reads requests per second, percentiles in any unit, and errors", () => {
    const result = parseWrk(report, 10);
    expect(result.requests).toBe(144211);
    expect(result.rps).toBeCloseTo(144211 / 10.02, 3);
    expect(result.p50).toBeCloseTo(3.3);
    expect(result.p99).toBeCloseTo(0.812);
    expect(result.errors).toBe(7);
  });
});
