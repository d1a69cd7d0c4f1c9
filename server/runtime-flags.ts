/**
 * V8 flags the production server runs with (`npm start`, `npm run serve`, and
 * every test, benchmark and load test that spawns it). With lots of free
 * memory V8 grows its heap lazily; these bounds keep one instance near 125 MB
 * idle and 165 MB under load on PostgreSQL (instead of 250 and 375 MB) for
 * about a quarter less peak throughput. Measured in docs/decisions/0006.
 */
export const serverNodeFlags = ["--max-semi-space-size=4", "--max-old-space-size=192"] as const;

/**
 * Environment the server starts with, beside the flags: glibc's malloc keeps up to eight arenas
 * per core for the threads that allocate (libuv's pool: files, compression, hashing), each holding
 * freed memory. Two are enough for a process whose JavaScript runs on one thread; measured on
 * PostgreSQL through an ingestion and a 60 s load test, 254 MB peak RSS before, 232 MB after
 * (decision 0006). Other C libraries ignore it.
 */
export const serverEnvironment = { MALLOC_ARENA_MAX: "2" } as const;
