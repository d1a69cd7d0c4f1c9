/**
 * Hydration on a person's first interaction, for pages whose whole content is server-rendered
 * and usable without JavaScript (the home pages: links, the language switch and the contact
 * form's no-JavaScript post all work as plain HTML). React Router's <Scripts> asks for every
 * module up front (modulepreload links in <head>, an inline module script at the end of
 * <body>): ~118 KB of modules whose parsing, running and hydrating Lighthouse counts as blocking
 * time whenever it happens during the load. hydrateOnInteraction() rewrites the rendered HTML so
 * that nothing of it is fetched or run until the visitor first interacts: the module script
 * becomes inert (same text, another type) and the loader below starts it, with its preloads, on
 * the first pointerdown, keydown, focusin, touchstart, input or wheel. Decision 0116.
 *
 * What the first interactions do before React has taken over (the loader handles them):
 * - a click on the colour-mode toggle switches the mode at once (the same storage entry as the
 *   app's, app/lib/color-mode.ts); React reads the mode from the page once it hydrates;
 * - a click on a Bootstrap collapse toggler (the small-screen menu) opens or closes its target,
 *   a link inside the open menu or Escape closes it; once hydrated, an open menu is handed to
 *   React (closed and clicked again in the same task, so nothing is painted in between);
 * - a click on any other type="button" button is replayed once the page has hydrated;
 * - focus, typing (the form's fields are uncontrolled: React keeps their values), links and
 *   submit buttons need nothing: the browser does what it does without JavaScript.
 *
 * CSP: both scripts carry the response's nonce, so the page cache hashes them like the
 * others (server/page-cache.ts withScriptHashes); the copy the loader inserts has the
 * inert script's exact text, so the same hash (or the nonce it copies) allows it.
 */
import { colorModeToggleClass, flipColorModeFunction } from "../lib/color-mode";
import { hydratedEvent } from "../lib/route-handle";

export const deferredModuleId = "rr-deferred-module";

/** A person's first input of any kind; none of them is fired by loading or by a script scrolling the page. */
export const interactionEvents = ["pointerdown", "keydown", "focusin", "touchstart", "input", "wheel"] as const;

/**
 * The loader, plain ES5. start() runs once, on the first interaction event (capture phase,
 * passive: nothing is prevented): it adds the preloads and runs a copy of the inert module
 * script. (Hydrating does not move the page: React Router restores a saved scroll position only
 * on navigations, not when it hydrates, so a reader who has scrolled stays where they are.)
 * Until the root reports hydration (hydratedEvent, app/root.tsx), clicks and Escape get the
 * handling above.
 */
export const hydrateOnInteractionScript = [
  "(function(){",
  `var w=window,d=document,c=d.currentScript,o=d.getElementById(${JSON.stringify(deferredModuleId)}),s=0,q=[],`,
  `f=${flipColorModeFunction},`,
  't=d.querySelector(".navbar-toggler[aria-controls]"),n=t&&d.getElementById(t.getAttribute("aria-controls"));',
  "if(!o)return;",
  // The small-screen menu, as Bootstrap's collapse shows it.
  'function open(v){n.classList.toggle("show",v);t.classList.toggle("collapsed",!v);t.setAttribute("aria-expanded",v?"true":"false")}',
  'function shown(){return!!n&&n.classList.contains("show")}',
  "function start(){if(s)return;s=1;",
  `${JSON.stringify(interactionEvents)}.forEach(function(e){w.removeEventListener(e,start,true)});`,
  '(o.getAttribute("data-modulepreload")||"").split(" ").forEach(function(h){if(!h)return;var l=d.createElement("link");l.rel="modulepreload";l.href=h;d.head.appendChild(l)});',
  'var m=d.createElement("script");m.type="module";m.nonce=c.nonce;m.textContent=o.textContent;d.body.appendChild(m)}',
  `${JSON.stringify(interactionEvents)}.forEach(function(e){w.addEventListener(e,start,{capture:true,passive:true})});`,
  "function click(e){",
  'var b=e.target&&e.target.closest?e.target.closest("a[href],button"):null;if(!b)return;',
  'if(b.tagName==="A"){if(shown()&&n.contains(b))open(false);return}',
  // Submit buttons post the form as without JavaScript.
  'if(b.type!=="button")return;',
  // React may be listening already, hydrating: it must not handle this click as well.
  "e.stopImmediatePropagation();",
  `if(b.classList.contains(${JSON.stringify(colorModeToggleClass)}))f(b);else if(b===t&&n)open(!shown());else q.push(b)}`,
  'function key(e){if(e.key==="Escape"&&shown()){open(false);t.focus()}}',
  'w.addEventListener("click",click,true);w.addEventListener("keydown",key,true);',
  `d.addEventListener(${JSON.stringify(hydratedEvent)},function(){`,
  'w.removeEventListener("click",click,true);w.removeEventListener("keydown",key,true);',
  // After the effect that reported hydration, before the next paint.
  "Promise.resolve().then(function(){if(shown()){open(false);t.click()}q.forEach(function(b){b.click()})})",
  "},{once:true})",
  "})();",
].join("");

const modulePreload = /<link rel="modulepreload" href="([^"]+)"[^>]*>/g;
const moduleScript = /<script nonce="([^"]*)" type="module" async="">([\s\S]*?)<\/script>/g;

/** The page's HTML with its modules loaded on the first interaction; unchanged when <Scripts>' output is not recognised. */
export function hydrateOnInteraction(html: string): string {
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
      `<script nonce="${nonce}">${hydrateOnInteractionScript}</script>`,
  );
}
