/** The colour mode toggle's state: follows the system until the visitor picks one, which is remembered. */
import { useCallback, useEffect, useState } from "react";
import { applyColorMode, type ColorMode, colorModeItem, isColorMode, preferredColorMode } from "./color-mode.ts";

export function useColorMode(): { mode: ColorMode | undefined; toggle: () => void } {
  // Unknown during the server render; the inline head script has already applied it.
  const [mode, setMode] = useState<ColorMode | undefined>(undefined);

  useEffect(() => {
    const current = document.documentElement.getAttribute("data-bs-theme");
    setMode(isColorMode(current) ? current : preferredColorMode());
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    const onSystemChange = () => {
      if (colorModeItem.get() !== undefined) return;
      const next: ColorMode = media.matches ? "dark" : "light";
      applyColorMode(next);
      setMode(next);
    };
    media.addEventListener("change", onSystemChange);
    return () => media.removeEventListener("change", onSystemChange);
  }, []);

  const toggle = useCallback(() => {
    const current = document.documentElement.getAttribute("data-bs-theme");
    const next: ColorMode = (isColorMode(current) ? current : preferredColorMode()) === "dark" ? "light" : "dark";
    colorModeItem.set(next);
    applyColorMode(next);
    setMode(next);
  }, []);

  return { mode, toggle };
}
