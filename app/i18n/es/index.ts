import { common } from "./common";
import { contact } from "./contact";
import { home } from "./home";
import { legal } from "./legal";

/** The Spanish catalog is the source of truth: its shape is the type every locale must fill. */
export const es = { common, home, legal, contact };
export type Messages = typeof es;
