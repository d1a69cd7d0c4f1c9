import type { Messages } from "../es";

/** English: the contact section and its form. */
export const contact: Messages["contact"] = {};
