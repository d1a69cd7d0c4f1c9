/**
 * V8 flags the production server runs with (`npm start`, `npm run serve`, and
 * every test, benchmark and load test that spawns it). With lots of free
 * memory V8 grows its heap lazily. `--optimize-for-size` makes it favour memory
 * over speed: a 1 MB young generation (it sets --max-semi-space-size=1) and a
 * heap that grows less between collections. On PostgreSQL, through an ingestion
 * and a 60 s load test, the peak fell from 213-215 MB (young generation bounded
 * at 4 MB) to 185-191 MB; cached pages are served as fast, a contact request on
 * PGlite costs about a quarter more (370 -> 280 accepted/s). docs/decisions/0006.
 *
 * `--no-allocation-site-pretenuring`: V8 may decide, from the first collections under load, to
 * allocate some sites' objects directly in the old generation. Per-request objects then lived
 * until a full collection and kept young ones alive with them: about one server process in
 * five settled, for its whole life, at 7-8 full collections a second and half the requests per
 * second (57-99 µs of CPU per cached page instead of 22-24). With this flag, none of 17
 * processes did (22-28 µs); the PostgreSQL peak was 197 MB against 201 MB without it, in
 * back-to-back runs (docs/performance.md, 26 November 2026).
 *
 * `--liftoff-only`: the embedded database (PGlite) is PostgreSQL compiled to WebAssembly, and V8
 * re-compiles its hot functions with its optimising tier in the background; each of those
 * compilations holds tens of megabytes of native memory while it runs. Through the first queries
 * after a start the process went from 300 to 776 MB and back (decision 0132). V8 reads the flag
 * only at its start: set later from JavaScript (v8.setFlagsFromString, as db/client.ts did) it
 * changed nothing. A process on PostgreSQL runs no WebAssembly; the flag costs it nothing.
 *
 * `--no-concurrent-recompilation`: V8 optimises hot JavaScript on the main thread instead of a
 * background one. Under a burst of requests the background compilations ran beside the requests,
 * each holding its own compiler memory: on PostgreSQL, 20 s of 50-connection GET load raised the
 * resident set by 10-17 MB with it and 5-11 MB without, at the same requests per second
 * (four alternating runs, decision 0165).
 */
export const serverNodeFlags = [
  "--max-old-space-size=192",
  "--optimize-for-size",
  "--no-allocation-site-pretenuring",
  "--liftoff-only",
  "--no-concurrent-recompilation",
] as const;

/**
 * The server `npm start` and `npm run serve` run: server/main.ts bundled to plain JavaScript by
 * `npm run build` (scripts/build-server.ts), started with Node's type stripping off, so the process
 * never loads the stripper (amaro, SWC compiled to WebAssembly: about 17 MB resident for its whole
 * life, decision 0165) and a TypeScript file imported at run time fails at once instead of
 * bringing it back.
 */
export const serverEntry = "build/main.js";
export const serverEntryFlags = ["--no-experimental-strip-types"] as const;

/**
 * Environment the server starts with, beside the flags: glibc's malloc keeps up to eight arenas
 * per core for the threads that allocate (libuv's pool: files, compression, hashing), each holding
 * freed memory. Two are enough for a process whose JavaScript runs on one thread; measured on
 * PostgreSQL through an ingestion and a 60 s load test, 254 MB peak RSS before, 232 MB after
 * (decision 0006). Other C libraries ignore it.
 *
 * `MALLOC_MMAP_THRESHOLD_` and `MALLOC_TRIM_THRESHOLD_` at 128 KiB: glibc raises its mmap threshold
 * each time a large block is freed (up to 32 MB), after which blocks that size come from the arena
 * and stay there when freed; fixed thresholds keep blocks over 128 KiB in their own mappings,
 * returned to the system on free, and the arena's free top trimmed. Measured on PGlite through a
 * recorded day, the largest law's poll and 60 s of GET load, one after the other in one session:
 * malloc's main arena 41 → 27 MB, after the burst 264 → 254 MB, peak 302 → 263 MB (decision 0165).
 */
export const serverEnvironment = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  MALLOC_TRIM_THRESHOLD_: "131072",
} as const;
