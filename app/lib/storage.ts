/** Typed localStorage entries that expire: every value carries a maximum age and is dropped once read after it. */

/** The spec's default maximum age, in seconds. */
export const defaultMaxAge = 2147483646;

interface StoredEntry<T> {
  value: T;
  /** Epoch milliseconds after which the entry is gone. */
  expiresAt: number;
}

export interface StorageItem<T> {
  get(): T | undefined;
  set(value: T, options?: { maxAge?: number }): void;
  remove(): void;
}

function backend(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Access throws where storage is disabled (privacy modes, sandboxed frames).
    return undefined;
  }
}

export function storageItem<T>(
  key: string,
  options: { maxAge?: number; storage?: () => Storage | undefined; now?: () => number } = {},
): StorageItem<T> {
  const getStorage = options.storage ?? backend;
  const now = options.now ?? (() => Date.now());
  const fullKey = `site:${key}`;
  return {
    get() {
      const store = getStorage();
      const raw = store?.getItem(fullKey);
      if (raw == null) return undefined;
      try {
        const entry = JSON.parse(raw) as StoredEntry<T>;
        if (typeof entry?.expiresAt !== "number" || entry.expiresAt <= now()) {
          store?.removeItem(fullKey);
          return undefined;
        }
        return entry.value;
      } catch {
        store?.removeItem(fullKey);
        return undefined;
      }
    },
    set(value, setOptions) {
      const maxAge = setOptions?.maxAge ?? options.maxAge ?? defaultMaxAge;
      const entry: StoredEntry<T> = { value, expiresAt: now() + maxAge * 1000 };
      try {
        getStorage()?.setItem(fullKey, JSON.stringify(entry));
      } catch {
        // Quota exceeded or storage disabled: remembering is best effort.
      }
    },
    remove() {
      getStorage()?.removeItem(fullKey);
    },
  };
}
