/** The BOE's settings: its base URL and the watch of today's summary (issue 20). */
import { z } from "zod";
import type { SourceConfig, WatchWindow } from "../plugin.ts";
import { parseWindow, WATCH_WINDOW_PATTERN } from "../schedule.ts";
import { httpUrlSetting } from "../settings.ts";

/**
 * How often today's summary is checked in the window by default. 15 s: a publication is seen
 * 7.5 s after it on average (15 s at worst), for 720 conditional requests a morning, 304s and
 * 404s of a few hundred bytes, at 1/30 of the pace the source allows (decision 0075).
 */
export const BOE_WATCH_SECONDS_DEFAULT = 15;

/** The BOE's own address (BOE_API_URL's default; where the bundled sample was recorded). */
export const BOE_OFFICIAL_URL = "https://www.boe.es";

const env = {
  BOE_API_URL: httpUrlSetting().default(BOE_OFFICIAL_URL),
  // Know first: today's summary checked every BOE_WATCH_SECONDS (0 = off) in its window.
  BOE_WATCH_SECONDS: z.coerce.number().int().min(0).max(3600).default(BOE_WATCH_SECONDS_DEFAULT),
  BOE_WATCH_WINDOW: z
    .string()
    .regex(
      WATCH_WINDOW_PATTERN,
      'must be like "1-6 07:00-10:00" (weekdays 0 = Sunday to 6, optional; Europe/Madrid times)',
    )
    .default("1-6 07:00-10:00"),
};

export interface BoeSettings {
  boeApiUrl: string;
  /** The watch: today's summary checked every `seconds` (0 = off) on `days` (0 = Sunday) between two Madrid times. */
  watch: Readonly<WatchWindow & { seconds: number }>;
}

export const boeConfig: SourceConfig<typeof env, BoeSettings> = {
  env,
  read: (values) => ({
    boeApiUrl: values.BOE_API_URL,
    // The pattern above has already checked the window.
    watch: Object.freeze({
      seconds: values.BOE_WATCH_SECONDS,
      ...(parseWindow(values.BOE_WATCH_WINDOW) as WatchWindow),
    }),
  }),
};
