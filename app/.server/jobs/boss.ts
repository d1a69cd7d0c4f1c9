/**
 * pg-boss's start, retried: instances starting at the same moment on a fresh PostgreSQL can
 * collide while pg-boss installs its schema (seen as a duplicate "pgboss" namespace in the
 * several-instances test); the loser's second attempt finds the schema installed.
 */
import type { PgBoss } from "pg-boss";
import type { Logger } from "../logger.ts";

export async function startBoss(boss: PgBoss, log: Pick<Logger, "warn">, attempts = 4): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await boss.start();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      log.warn({ err: error, attempt }, "job queue did not start; trying again");
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt + Math.random() * 250));
    }
  }
}
