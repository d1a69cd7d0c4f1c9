/** Which page section is in view: IntersectionObserver as the trigger, the largest visible height wins. */
import { useEffect, useState } from "react";
import { scrollspyThresholds } from "./widget-defaults.ts";

/**
 * @param ids section element ids, in page order
 * @param topInset pixels hidden under the sticky header
 */
export function useScrollspy(ids: readonly string[], topInset = 64): string | undefined {
  const [active, setActive] = useState<string | undefined>(undefined);
  const key = ids.join(" ");

  useEffect(() => {
    const sections = key
      .split(" ")
      .map((id) => document.getElementById(id))
      .filter((el): el is HTMLElement => el !== null);
    if (sections.length === 0 || typeof IntersectionObserver === "undefined") return;

    const update = () => {
      const viewBottom = window.innerHeight;
      let best: string | undefined;
      let bestVisible = 0;
      for (const section of sections) {
        const rect = section.getBoundingClientRect();
        const visible = Math.min(rect.bottom, viewBottom) - Math.max(rect.top, topInset);
        if (visible > bestVisible) {
          bestVisible = visible;
          best = section.id;
        }
      }
      // At the very bottom of the page the last section counts as in view even if it is short.
      const atEnd = window.scrollY + viewBottom >= document.documentElement.scrollHeight - 2;
      const last = sections.at(-1);
      if (atEnd && last && last.getBoundingClientRect().top < viewBottom) best = last.id;
      setActive(best);
    };

    const observer = new IntersectionObserver(update, {
      threshold: scrollspyThresholds,
      rootMargin: `-${topInset}px 0px 0px 0px`,
    });
    for (const section of sections) observer.observe(section);
    update();
    return () => observer.disconnect();
  }, [key, topInset]);

  return active;
}
