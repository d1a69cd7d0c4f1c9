/**
 * V8 flags the production server runs with (`npm start`, `npm run serve`, and
 * every test, benchmark and load test that spawns it). With lots of free
 * memory V8 grows its heap lazily; these bounds keep one instance near 125 MB
 * idle and 165 MB under load on PostgreSQL (instead of 250 and 375 MB) for
 * about a quarter less peak throughput. Measured in docs/decisions/0006.
 */
export const serverNodeFlags = ["--max-semi-space-size=4", "--max-old-space-size=192"] as const;

/**
 * Environment the server starts with, beside the flags, for glibc's malloc (other C libraries
 * ignore it). MALLOC_ARENA_MAX: glibc keeps up to eight arenas per core for the threads that
 * allocate (libuv's pool: files, compression, hashing), each holding freed memory; two are enough
 * for a process whose JavaScript runs on one thread (PostgreSQL, ingestion and 60 s of load: 254 →
 * 232 MB peak RSS). MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ fixed at 128 KiB: by default
 * glibc raises the mmap threshold each time a large block is freed, after which large blocks (the
 * page cache's compression, the ingestion's buffers) come from the arenas and stay resident once
 * freed; fixed, they are mapped and given back (the same run: 218 → 212 MB; decision 0006).
 */
export const serverEnvironment = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  MALLOC_TRIM_THRESHOLD_: "131072",
} as const;
