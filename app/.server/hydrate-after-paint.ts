/**
 * Hydration after the first paint, for pages whose whole content is server-rendered
 * (the home pages). React Router's <Scripts> asks for every module up front
 * (modulepreload links in <head>, an inline module script at the end of <body>); on a
 * slow connection those ~115 KB share the bandwidth with the stylesheets the first paint
 * waits for, and Lighthouse's simulation counts every request that ended before LCP.
 * hydrateAfterPaint() rewrites the rendered HTML so that nothing of it is fetched before
 * the page has painted: the module script becomes inert (same text, another type), and
 * the loader below starts it, with its preloads, once the browser reports the paint.
 *
 * CSP: both scripts carry the response's nonce, so the page cache hashes them like the
 * others (server/page-cache.ts withScriptHashes); the copy the loader inserts has the
 * inert script's exact text, so the same hash (or the nonce it copies) allows it.
 */

export const deferredModuleId = "rr-deferred-module";

/**
 * The loader: after the next frame, waits for a largest-contentful-paint entry (reported
 * once the frame is on screen; buffered, so one already painted counts), then preloads
 * the modules and runs a copy of the inert module script. Browsers without the entry
 * type start after the frame; a page that never reports one starts after 3 s.
 */
export const hydrateAfterPaintScript = `(function(){var c=document.currentScript,o=document.getElementById(${JSON.stringify(deferredModuleId)}),d=0;if(!o)return;function go(){if(d)return;d=1;(o.getAttribute("data-modulepreload")||"").split(" ").forEach(function(h){if(!h)return;var l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.appendChild(l)});var s=document.createElement("script");s.type="module";s.nonce=c.nonce;s.textContent=o.textContent;document.body.appendChild(s)}requestAnimationFrame(function(){var P=window.PerformanceObserver,t=P&&P.supportedEntryTypes||[];setTimeout(go,3000);if(t.indexOf("largest-contentful-paint")<0){setTimeout(go,0);return}new P(function(l,b){b.disconnect();setTimeout(go,0)}).observe({type:"largest-contentful-paint",buffered:true})})})();`;

const modulePreload = /<link rel="modulepreload" href="([^"]+)"[^>]*>/g;
const moduleScript = /<script nonce="([^"]*)" type="module" async="">([\s\S]*?)<\/script>/g;

/** The page's HTML with its modules loaded after the first paint; unchanged when <Scripts>' output is not recognised. */
export function hydrateAfterPaint(html: string): string {
  const scripts = [...html.matchAll(moduleScript)];
  if (scripts.length !== 1) return html;
  const [, nonce = "", body = ""] = scripts[0]!;
  const hrefs: string[] = [];
  const withoutPreloads = html.replace(modulePreload, (_link, href: string) => {
    hrefs.push(href);
    return "";
  });
  if (hrefs.length === 0) return html;
  return withoutPreloads.replace(
    moduleScript,
    () =>
      `<script nonce="${nonce}" type="text/x-deferred-module" id="${deferredModuleId}" data-modulepreload="${hrefs.join(" ")}">${body}</script>` +
      `<script nonce="${nonce}">${hydrateAfterPaintScript}</script>`,
  );
}
