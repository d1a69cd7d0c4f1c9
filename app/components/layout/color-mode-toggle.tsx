import type { Locale } from "../../i18n/locales";
import { shellMessagesFor } from "../../i18n/shell";
import { colorModeToggleClass } from "../../lib/color-mode";
import { useColorMode } from "../../lib/use-color-mode";
import { SvgIcon } from "../ui/icons";

/**
 * Dark mode on or off; the icons follow data-bs-theme through CSS, so the server render needs no state.
 * On a page that hydrates on interaction, a click before hydration is handled by its class
 * (flipColorModeFunction, app/lib/color-mode.ts).
 */
export function ColorModeToggle({ lang }: { lang: Locale }) {
  const t = shellMessagesFor(lang).common.nav;
  const { mode, toggle } = useColorMode();
  return (
    <button
      type="button"
      className={`btn btn-icon ${colorModeToggleClass}`}
      aria-pressed={mode === undefined ? undefined : mode === "dark"}
      aria-label={t.darkMode}
      title={t.darkMode}
      onClick={toggle}
    >
      <SvgIcon name="moon" size={20} className="icon-when-light" />
      <SvgIcon name="sun" size={20} className="icon-when-dark" />
    </button>
  );
}
