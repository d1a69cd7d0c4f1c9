/**
 * Scroll-in animations. Elements marked data-reveal are hidden only once this
 * hook has run (class "reveal-ready" on <html>), so the content stays visible
 * when JavaScript is off or fails; nothing moves under prefers-reduced-motion.
 */
import { useEffect } from "react";
import { revealDefaults } from "./widget-defaults.ts";

export const revealReadyClass = "reveal-ready";
export const revealedClass = "is-revealed";

function throttle(fn: () => void, ms: number): () => void {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    const wait = ms - (Date.now() - last);
    if (wait <= 0) {
      last = Date.now();
      fn();
    } else if (!timer) {
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        fn();
      }, wait);
    }
  };
}

function debounce(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

export function useReveal(pageKey: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: pageKey re-runs the effect when a new page's elements are rendered
  useEffect(() => {
    const root = document.documentElement;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    let pending = [...document.querySelectorAll<HTMLElement>("[data-reveal]")].filter(
      (el) => !el.classList.contains(revealedClass),
    );
    if (pending.length === 0) return;

    const check = () => {
      const limit = window.innerHeight - revealDefaults.offset;
      const atEnd = window.scrollY + window.innerHeight >= root.scrollHeight - 2;
      pending = pending.filter((el) => {
        const top = el.getBoundingClientRect().top;
        if (atEnd || top < limit) {
          el.classList.add(revealedClass);
          return false;
        }
        return true;
      });
      if (pending.length === 0) stop();
    };
    const onScroll = throttle(check, revealDefaults.throttleMs);
    const onResize = debounce(check, revealDefaults.debounceMs);
    const stop = () => {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onResize);
    };

    // Reveal what is already in view before hiding the rest, so nothing blinks.
    check();
    root.style.setProperty("--reveal-duration", `${revealDefaults.durationMs}ms`);
    root.style.setProperty("--reveal-easing", revealDefaults.easing);
    root.classList.add(revealReadyClass);
    if (pending.length === 0) return;
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onResize);
    return stop;
  }, [pageKey]);
}
