/**
 * Cache policies routes declare for their pages. The server's page cache is a shared
 * cache: it keeps only what says `public` with an `s-maxage`, one copy per value of
 * the request headers named in `Vary`.
 */

/**
 * The same page for every anonymous visitor: browsers revalidate each time (ETag),
 * shared caches (the server's page cache, a CDN) may answer from a copy for a second.
 * One second keeps the contact form's signed render time fresh.
 */
export const sharedPageCacheControl = "public, max-age=0, s-maxage=1";

/** A page that depends on the request (a query, a form's outcome): revalidated, never shared. */
export const privatePageCacheControl = "private, no-cache";

/**
 * The policy of a page that is the same for every anonymous visitor unless its URL
 * has a query (a form's outcome, or anything else: a query never fills the shared cache).
 */
export function pageCacheControl(request: Request): string {
  return new URL(request.url).search === "" ? sharedPageCacheControl : privatePageCacheControl;
}
