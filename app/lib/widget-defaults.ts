/** The spec's widget and scroll-animation defaults, in one place (section 9). */

/** Carousel: time between slides, in milliseconds. */
export const carouselIntervalMs = 5000;
/** Carousel: horizontal travel, in pixels, that counts as a swipe. */
export const carouselSwipeThresholdPx = 40;
/** Toast: autohide delay, in milliseconds. */
export const toastAutohideMs = 5000;
/** Tooltip: placement and [skidding, distance] offset. */
export const tooltipPlacement = "top" as const;
export const tooltipOffset: [number, number] = [0, 6];
/** Popover: placement and offset. */
export const popoverPlacement = "right" as const;
export const popoverOffset: [number, number] = [0, 8];
/** Dropdown menu offset. */
export const dropdownOffset: [number, number] = [0, 2];
/** Scrollspy: intersection ratios at which the active section is re-evaluated. */
export const scrollspyThresholds: number[] = [0.1, 0.5, 1];

/** Scroll-in animations ("reveal"): how far into the viewport an element must be, timing and event rates. */
export const revealDefaults = {
  /** Pixels from the bottom of the viewport before an element is shown. */
  offset: 120,
  durationMs: 400,
  easing: "ease",
  /** Scroll handling runs at most once per this many milliseconds. */
  throttleMs: 99,
  /** Resize handling waits for this many quiet milliseconds. */
  debounceMs: 50,
} as const;
