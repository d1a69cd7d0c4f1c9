/** Light and dark colour modes: the visitor's choice, remembered with storageItem, else prefers-color-scheme. */
import { defaultMaxAge, storageItem } from "./storage.ts";

export type ColorMode = "light" | "dark";

/** Key given to storageItem; storage.ts stores it as `site:${key}` = JSON {value, expiresAt}. */
export const colorModeKey = "color-mode";
export const colorModeItem = storageItem<ColorMode>(colorModeKey);

export function isColorMode(value: unknown): value is ColorMode {
  return value === "light" || value === "dark";
}

/** The mode in effect: a remembered choice, else the system preference. */
export function preferredColorMode(): ColorMode {
  const stored = colorModeItem.get();
  if (isColorMode(stored)) return stored;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function applyColorMode(mode: ColorMode): void {
  document.documentElement.setAttribute("data-bs-theme", mode);
}

/**
 * Source of the inline script at the top of <head>: marks that JavaScript runs
 * (class "js" on <html>) and sets data-bs-theme before first paint. It reads
 * the same entry format as storage.ts: an unexpired {value, expiresAt}.
 */
export const colorModeScript = `(function(){var d=document.documentElement,m;d.classList.add("js");try{var r=localStorage.getItem(${JSON.stringify(`site:${colorModeKey}`)});if(r){var e=JSON.parse(r);if(e&&typeof e.expiresAt==="number"&&e.expiresAt>Date.now()&&(e.value==="light"||e.value==="dark"))m=e.value}}catch(x){}if(!m)m=window.matchMedia&&window.matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";d.setAttribute("data-bs-theme",m)})();`;

/** The toggle button's class: app/components/layout/color-mode-toggle.tsx, and the pre-hydration handler below. */
export const colorModeToggleClass = "color-mode-toggle";

/**
 * Source of a plain ES5 function(button) doing what useColorMode's toggle does, for a click that
 * comes before React has hydrated the page (app/.server/hydrate-on-interaction.ts): the other
 * mode is remembered (storage.ts's entry, its default maximum age) and applied, and the button
 * shows it pressed or not. The current mode is the one colorModeScript set on <html> before the
 * first paint. React reads the mode from data-bs-theme once it hydrates.
 */
export const flipColorModeFunction = `function(b){var d=document.documentElement,m=d.getAttribute("data-bs-theme")==="dark"?"light":"dark";try{localStorage.setItem(${JSON.stringify(`site:${colorModeKey}`)},JSON.stringify({value:m,expiresAt:Date.now()+${defaultMaxAge * 1000}}))}catch(x){}d.setAttribute("data-bs-theme",m);if(b)b.setAttribute("aria-pressed",m==="dark"?"true":"false")}`;
