/**
 * The free space under the embedded database (DATA_DIR/db), watched with statfs (decision 0157).
 * Below DISK_MIN_FREE_MB the server refuses writes (503 with a message in the reader's language,
 * /healthz says why) before PostgreSQL inside PGlite finds the disk full half-way through a
 * statement; reads go on. Above it again, writes are accepted again: no restart needed.
 */
import { statfs } from "node:fs/promises";

export interface DiskWatch {
  /** True while the free space is below the minimum (last check). */
  readonly low: boolean;
  /** Checks now; resolves with `low`. */
  check(): Promise<boolean>;
  stop(): void;
}

export function watchDiskSpace(options: {
  dir: string;
  minFreeBytes: number;
  intervalMs?: number;
  log: { error(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
}): DiskWatch {
  let low = false;
  const check = async (): Promise<boolean> => {
    let free: number;
    try {
      const stats = await statfs(options.dir);
      free = Number(stats.bavail) * Number(stats.bsize);
    } catch {
      return low; // unreadable for a moment: keep the last answer
    }
    const nowLow = free < options.minFreeBytes;
    if (nowLow !== low) {
      if (nowLow)
        options.log.error(
          { dir: options.dir, freeBytes: free, minFreeBytes: options.minFreeBytes },
          "disk nearly full under the database: writes refused until space is freed",
        );
      else options.log.info({ dir: options.dir, freeBytes: free }, "disk space back: writes accepted again");
    }
    low = nowLow;
    return low;
  };
  const timer = setInterval(() => void check(), options.intervalMs ?? 2000);
  timer.unref();
  return {
    get low() {
      return low;
    },
    check,
    stop: () => clearInterval(timer),
  };
}
