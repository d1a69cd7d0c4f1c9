import type { Messages } from "../es";

/** English: legal notice, privacy policy and login information pages. */
export const legal: Messages["legal"] = {};
