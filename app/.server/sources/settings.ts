/** Zod fields for the sources' environment variables (plug-ins' `config.env`); imports only zod. */
import { z } from "zod";

/** An http(s) base URL, trailing slashes dropped. */
export const httpUrlSetting = () =>
  z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .transform((value) => value.replace(/\/+$/, ""));

/** A positive whole number. */
export const positiveIntSetting = () => z.coerce.number().int().positive();
