/** What the audit and API modules write through: the database or a caller's transaction. */
import type { Db } from "../db/client.ts";

export type DbTransaction = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | DbTransaction;

/**
 * First key of the two-key advisory locks that serialise one organisation's chain
 * (the second is hashtext(organization id)); distinct from the migration lock's one-key space.
 */
export const auditLockClass = 72_041_301;
