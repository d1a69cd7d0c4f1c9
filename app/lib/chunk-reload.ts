/**
 * After a new deployment, an open tab may ask for code chunks that no longer
 * exist. Reload once to pick up the new build, and never more than once in 10 s.
 */
import { storageItem } from "./storage";

export const reloadGuardSeconds = 10;
const lastReload = storageItem<number>("chunk-reload", { maxAge: reloadGuardSeconds });

const chunkErrorPattern =
  /dynamically imported module|Importing a module script failed|Failed to fetch module|error loading dynamically imported module/i;

export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason ?? "");
  return chunkErrorPattern.test(message);
}

/** Returns true when a reload was started. */
export function reloadOnce(reload: () => void = () => window.location.reload()): boolean {
  if (lastReload.get() !== undefined) return false;
  lastReload.set(Date.now());
  reload();
  return true;
}

export function installChunkReload(): void {
  window.addEventListener("vite:preloadError", (event) => {
    if (reloadOnce()) event.preventDefault();
  });
  window.addEventListener("unhandledrejection", (event) => {
    if (isChunkLoadError(event.reason)) reloadOnce();
  });
}
